/**
 * The one schema of an instant the API accepts (request filters, re-score ranges, stats ranges,
 * a logged call's `created_at`): ISO-8601 date-time text with `Z` or an offset, whose instant
 * in UTC lies in the years 1970-9999 (1970-01-01T00:00:00Z inclusive to 10000-01-01T00:00:00Z exclusive).
 *
 * Why these bounds: PostgreSQL has no year 0 (`0000-...` fails with SQLSTATE 22008, once a 500);
 * JavaScript's `Date.UTC` and the PostgreSQL driver's date parser read years 0-99 as 1900-1999
 * (`0099-06-01` came back as `1999-06-01`); a year above 9999 has no ISO-8601 text without the
 * extended `+YYYYYY` form, which `Date#toISOString` then writes. Inside the bounds, an instant
 * is stored and read back as the same instant (millisecond precision: a JavaScript `Date`;
 * finer fractions are cut to the millisecond), answered as `2026-06-01T00:00:00.000Z`.
 *
 * Out of bounds or malformed: the route's validation answers 422 `{"detail": "<field>: ..."}`.
 */
import { z } from "@hono/zod-openapi";

/** The first instant refused at the top, 10000-01-01T00:00:00Z, in Unix ms (the last accepted is 9999-12-31T23:59:59.999Z). */
const END_OF_INSTANTS_MS = Date.UTC(10_000, 0, 1);

/** True when the ISO-8601 text `s` names an instant in [1970-01-01T00:00:00Z, 10000-01-01T00:00:00Z). */
function inInstantBounds(s: string): boolean {
  const ms = Date.parse(s);
  return Number.isFinite(ms) && ms >= 0 && ms < END_OF_INSTANTS_MS;
}

/**
 * An instant (ISO-8601 text, `Z` or offset), validated and kept as text: convert with
 * `new Date(s)` after validation. `description` documents the field in /openapi.json (the
 * bounds are appended).
 */
export const instantSchema = (description: string) =>
  z.iso
    .datetime({ offset: true })
    .refine(inInstantBounds, { message: "must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z" })
    .openapi({ description: `${description}; years 1970-9999 (UTC)`, example: "2026-11-01T00:00:00Z" });
