/**
 * Small helpers shared across the workers, each written once: the UUID pattern, hex
 * encoding, the plain-object check and ISO-8601 rendering of instants.
 */

/** A UUID in its canonical 8-4-4-4-12 hex form, any version, either case (RFC 9562, section 4). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID as PostgreSQL prints it and `uuidv7()` makes it: the same pattern, lowercase only. */
export const LOWERCASE_UUID_PATTERN = new RegExp(UUID_PATTERN.source);

/** True for a canonical UUID string. */
export const isUuid = (v: unknown): v is string => typeof v === "string" && UUID_PATTERN.test(v);

/** Lowercase hex of `bytes`, two characters per byte. */
export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return Array.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A JSON object: not null, not an array. */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** An instant as ISO-8601 text in UTC (`2026-11-21T10:00:00.000Z`). */
export const iso = (d: Date): string => d.toISOString();

/** As `iso`, keeping null (an instant that has not happened: revoked_at, expires_at). */
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);
