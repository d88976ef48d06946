/**
 * Times and numbers for people, in the browser's locale and time zone (Intl): every time the
 * dashboard shows is local to the person looking.
 */

/** The browser's IANA time zone, e.g. "Europe/Berlin". */
export const timeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** An ISO instant as local date and time, or a dash. */
export const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : "—");
