/**
 * Zod schemas of Workers variables (strings from wrangler `vars` and secrets) shared by the
 * config modules of every worker (src/config/api.ts, workers/scorer/src/config.ts,
 * workers/proxy/src/config.ts, dashboard/server/config.ts). Blank or unset means "the default".
 * Each failure's message says what was expected and what was given.
 */
import { z } from "zod";

/** True for an unset or whitespace-only variable. */
const isBlank = (v: string | undefined): v is undefined | "" => v === undefined || v.trim() === "";

/** What a bad value was, quoted, for a message. */
const got = (v: string) => `got ${JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}...` : v)}`;

/** An integer of at least `min` as a string (e.g. `"2097152"`); blank or unset: `fallback`. */
const intAtLeastVar = (min: number, expected: string) => (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (isBlank(v)) return fallback;
      const n = Number(v.trim());
      if (Number.isInteger(n) && n >= min) return n;
      ctx.addIssue({ code: "custom", message: `expected ${expected}, ${got(v)}` });
      return z.NEVER;
    });

/** A positive integer as a string (e.g. `"2097152"`); blank or unset: `fallback`. */
export const positiveIntVar = intAtLeastVar(1, "a positive integer");

/** A non-negative integer as a string (`"0"` allowed, e.g. to turn a delay off); blank or unset: `fallback`. */
export const nonNegativeIntVar = intAtLeastVar(0, "a non-negative integer");

/** `"true"` or `"false"`; blank or unset: `fallback`. */
export const flagVar = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (isBlank(v)) return fallback;
      const t = v.trim().toLowerCase();
      if (t === "true" || t === "false") return t === "true";
      ctx.addIssue({ code: "custom", message: `expected "true" or "false", ${got(v)}` });
      return z.NEVER;
    });

/** Free text, trimmed; blank or unset: undefined. */
export const textVar = z
  .string()
  .optional()
  .transform((v) => (isBlank(v) ? undefined : v.trim()));

/** A secret, kept exactly as given (not trimmed); unset or empty: undefined. */
export const secretVar = z
  .string()
  .optional()
  .transform((v) => v || undefined);

/** An http(s) URL, trimmed; blank or unset: undefined. */
export const httpUrlVar = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (isBlank(v)) return undefined;
    if (isHttpUrl(v.trim())) return v.trim();
    ctx.addIssue({ code: "custom", message: `expected an http(s) URL, ${got(v)}` });
    return z.NEVER;
  });

/** A required http(s) URL (e.g. the dashboard's public URL). */
export const requiredHttpUrlVar = z.string({ error: "expected an http(s) URL, got nothing" }).transform((v, ctx) => {
  if (isHttpUrl(v.trim())) return v.trim();
  ctx.addIssue({ code: "custom", message: `expected an http(s) URL, ${got(v)}` });
  return z.NEVER;
});

/** A required non-empty secret (e.g. a signing key). */
export const requiredSecretVar = z.string({ error: "expected a non-empty secret, got nothing" }).min(1, "expected a non-empty secret, got an empty one");

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * Origins (`https://host[:port]`) separated by commas or spaces, as a set of origins; blank or
 * unset: the empty set. An entry that is not an http(s) URL is an error naming it.
 */
export const originListVar = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const origins = new Set<string>();
    for (const entry of (v ?? "").split(/[\s,]+/)) {
      if (!entry) continue;
      if (isHttpUrl(entry)) origins.add(new URL(entry).origin);
      else ctx.addIssue({ code: "custom", message: `expected comma-separated http(s) origins, ${got(entry)} among them` });
    }
    return origins;
  });

/**
 * A JSON object overriding some keys of `defaults` with non-negative integers or null (e.g. the
 * tier tables: `{"free": 50}`); blank or unset: `defaults`.
 */
export const jsonTableVar = <K extends string>(keys: readonly [K, ...K[]], defaults: Readonly<Record<K, number | null>>) => {
  const overrides = z.partialRecord(z.enum(keys), z.number().int().nonnegative().nullable());
  const expected = `expected a JSON object of ${keys.join("/")} to a non-negative integer or null`;
  return z
    .string()
    .optional()
    .transform((v, ctx): Record<K, number | null> => {
      if (isBlank(v)) return { ...defaults };
      let json: unknown;
      try {
        json = JSON.parse(v);
      } catch {
        ctx.addIssue({ code: "custom", message: `${expected}, ${got(v)}` });
        return z.NEVER;
      }
      const parsed = overrides.safeParse(json);
      if (parsed.success) return { ...defaults, ...(parsed.data as Partial<Record<K, number | null>>) };
      ctx.addIssue({ code: "custom", message: `${expected}, ${got(v)}` });
      return z.NEVER;
    });
};

/** A binding (queue, bucket, Hyperdrive, service, AI) passed through as given, typed `T`. */
export const binding = <T>() => z.unknown().optional() as unknown as z.ZodType<T>;
