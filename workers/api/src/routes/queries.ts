/**
 * The query schemas of the API's read routes (zod with OpenAPI metadata) and the re-score input,
 * in one module that reads no database, middleware or route code, so the dashboard server
 * validates what it forwards with the API's own schemas (issue 35.2) without taking in the API's
 * routes: pages, project id, time ranges, `reveal`, the request filters and their cross-field
 * rules, keyset paging, each read route's query, and POST /api/rescore's body. Route modules
 * import them from here.
 */
import { z } from "@hono/zod-openapi";
import { EXPORT_FORMATS, REVIEW_VERDICTS, SCORE_LABELS, SCORER_NAMES, type ScorerName } from "../../../../src/enums";
import { MAX_QUERY_CHARS } from "../../../../src/db/search-config";
import { instantSchema } from "../../../../src/instant";
import { MAX_RESCORE_DAYS } from "../../../../src/rescore/limits";

/** Largest `page_size` (docs/interface.md section 8). */
export const MAX_PAGE_SIZE = 200;

/** `page` (from 1) and `page_size` (default 50, max 200) query parameters. */
export const PaginationQuery = z.object({
  page: z.coerce.number().int().min(1).default(1).openapi({ description: "Page number, from 1", example: 1 }),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(50)
    .openapi({ description: `Records per page, 1 to ${MAX_PAGE_SIZE}`, example: 50 }),
});

/** `project_id`: implied by an API key; required with the internal secret. */
export const ProjectIdQuery = z.object({
  project_id: z.uuid().optional().openapi({ description: "Project id. Implied by an API key (must match if given); required with X-Internal-Secret." }),
});

/** Optional ISO-8601 instant query parameter (start inclusive, end exclusive), years 1970-9999 (src/instant.ts). */
export const isoInstant = (description: string) => instantSchema(description).optional();

/**
 * Refuses a time range whose `start` is after its `end` (422 naming `start`); `start` equal
 * to `end` is the empty range, not an error.
 */
export function orderedRange<T extends z.ZodType<{ start?: string | undefined; end?: string | undefined }>>(schema: T): T {
  return schema.refine((q) => !q.start || !q.end || Date.parse(q.start) <= Date.parse(q.end), {
    message: "must not be after end",
    path: ["start"],
  }) as T;
}

/** `reveal`: ask for stored text unmasked (API keys with the `admin` scope; audited). */
export const RevealQuery = z.object({
  reveal: z.enum(["true", "false"]).default("false").openapi({
    description:
      "`true`: show stored text unmasked. API keys need the `admin` scope (403 otherwise) and each raw read is recorded in the reveal audit; without it, keys read personal data masked as `[KIND]`.",
  }),
});

/** Query key of the per-scorer label filter: `label[content_safety]=unsafe`. */
export const labelKey = (name: ScorerName) => `label[${name}]` as const;

const perScorerLabels = Object.fromEntries(
  SCORER_NAMES.map((name) => [
    labelKey(name),
    z
      .enum(SCORE_LABELS)
      .optional()
      .openapi({ description: `Only requests whose ${name} score has this label` }),
  ]),
) as Record<`label[${ScorerName}]`, z.ZodOptional<z.ZodEnum<{ [K in (typeof SCORE_LABELS)[number]]: K }>>>;

/** Filters of the requests views (extend it, then apply `checkedFilters`). */
export const RequestFilterQuery = ProjectIdQuery.extend({
  start: isoInstant("Earliest created_at, inclusive (ISO-8601)"),
  end: isoInstant("Latest created_at, exclusive (ISO-8601)"),
  model: z.string().min(1).max(256).optional().openapi({ description: "Exact model name" }),
  provider: z.string().min(1).max(64).optional().openapi({ description: "Exact provider name" }),
  status: z.enum(["ok", "error"]).optional().openapi({ description: '`error`: the capture recorded `metadata.status = "error"`; `ok`: every other request' }),
  scorer: z
    .enum(SCORER_NAMES)
    .optional()
    .openapi({ description: "Scorer that `label`, `min_score` and `reviewed` apply to (any scorer if absent, except `label`)" }),
  label: z.enum(SCORE_LABELS).optional().openapi({ description: "With `scorer`: that scorer's label (same as `label[<scorer>]`)" }),
  ...perScorerLabels,
  min_score: z.coerce.number().int().min(1).max(5).optional().openapi({ description: "Some score (of `scorer`) is at least this Likert value" }),
  reviewed: z
    .enum([...REVIEW_VERDICTS, "none"])
    .optional()
    .openapi({ description: "The call was reviewed (for `scorer`) with this verdict; `none`: not reviewed (for `scorer`, or for any scorer without it)" }),
  q: z
    .string()
    .trim()
    .min(1)
    .max(MAX_QUERY_CHARS)
    .optional()
    .openapi({ description: "Full-text search in the prompt and completion text (whole words, web-search syntax: quotes, `or`, `-word`)" }),
});

/** Adds the cross-field rules (422): `label` needs `scorer`; `start` not after `end`. */
export function checkedFilters<
  T extends z.ZodType<{ label?: string | undefined; scorer?: string | undefined; start?: string | undefined; end?: string | undefined }>,
>(schema: T): T {
  return schema
    .refine((q) => !q.label || q.scorer, { message: "needs `scorer` (or use label[<scorer>])", path: ["label"] })
    .refine((q) => !q.start || !q.end || Date.parse(q.start) <= Date.parse(q.end), { message: "must not be after end", path: ["start"] }) as T;
}

/** Keyset paging of the request list: `cursor`, `after`, `limit`, `ids`. */
export const KeysetQuery = z.object({
  cursor: z.uuid().optional().openapi({ description: "Rows older than this request id (the previous page's `next_cursor`)" }),
  after: z.uuid().optional().openapi({ description: "Rows newer than this request id (live polling: the newest row shown)" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .optional()
    .openapi({ description: `Rows per page, 1 to ${MAX_PAGE_SIZE} (default 50)` }),
  ids: z
    .string()
    .regex(/^[0-9a-fA-F-]{36}(,[0-9a-fA-F-]{36}){0,199}$/, "comma-separated request ids, at most 200")
    .optional()
    .openapi({ description: "Only these request ids (live polling re-asks rows whose scores are pending)" }),
});

/** The keyset list's query (filters, `cursor`/`after`/`limit`/`ids`): what the dashboard server accepts and forwards to GET /api/requests/keyset. */
export const KeysetListQuery = checkedFilters(RequestFilterQuery.extend(KeysetQuery.shape));

/** The query of GET /api/requests/count: the filters and `after` (rows newer than that id). */
export const CountQuery = checkedFilters(RequestFilterQuery.extend({ after: KeysetQuery.shape.after }));

/** The query of GET /api/requests/export: the filters and the `format`. */
export const ExportQuery = checkedFilters(RequestFilterQuery.extend({ format: z.enum(EXPORT_FORMATS).default("jsonl") }));

/** The query of GET /api/requests/{id}: the list's filters (for `neighbours`) and `reveal`. */
export const NeighboursQuery = checkedFilters(
  RequestFilterQuery.extend({
    neighbours: z
      .enum(["true", "false"])
      .default("false")
      .openapi({ description: "`true`: also return the ids of the rows before and after it among those matching the filters" }),
  }).extend(RevealQuery.shape),
);

/** The query of GET /api/reviews/export: the request list's filters and `reveal`. */
export const ReviewExportQuery = checkedFilters(RequestFilterQuery.extend(RevealQuery.shape));

/** A range of score times (GET /api/safety-scores and its summary). */
export const ScoreRangeQuery = ProjectIdQuery.extend({
  start: isoInstant("Earliest score created_at, inclusive (ISO-8601)"),
  end: isoInstant("Latest score created_at, exclusive (ISO-8601)"),
});

/** The query of GET /api/safety-scores/summary: an optional range of score times. */
export const SummaryQuery = orderedRange(ScoreRangeQuery);

/** Most buckets one call may ask for (a year of days, or about 3 months of hours). */
export const MAX_BUCKETS = 2200;
/** Width of a bucket, in milliseconds. */
export const BUCKET_MS = { hour: 3_600_000, day: 86_400_000 } as const;

/** The query of GET /api/stats/timeseries: bucket width and range, at most MAX_BUCKETS buckets. */
export const TimeseriesQuery = ProjectIdQuery.extend({
  bucket: z.enum(["hour", "day"]).default("hour").openapi({ description: "Bucket width (UTC)" }),
  start: instantSchema("Range start, inclusive (ISO-8601)"),
  end: instantSchema("Range end, exclusive (ISO-8601)").openapi({ example: "2026-11-02T00:00:00Z" }),
})
  .refine((q) => Date.parse(q.start) <= Date.parse(q.end), { message: "must not be after end", path: ["start"] })
  .refine((q) => (Date.parse(q.end) - Date.parse(q.start)) / BUCKET_MS[q.bucket] <= MAX_BUCKETS, {
    message: `range spans more than ${MAX_BUCKETS} buckets; use bucket=day or a shorter range`,
    path: ["end"],
  });

/**
 * The range of calls a session read covers (docs/sessions.md): `start` defaults to the oldest
 * call the project's retention keeps, so the read never covers every month of the partitioned
 * table (docs/storage.md); `end` has no default.
 */
const sessionRange = {
  start: isoInstant("Only calls made at or after this time (ISO-8601); default: the oldest the project's retention keeps (none for unlimited retention)"),
  end: isoInstant("Only calls made before this time (ISO-8601); default: none"),
};

/** The query of GET /api/sessions: the page, the range of calls, and the project (with the internal secret). */
export const SessionListQuery = orderedRange(PaginationQuery.extend(ProjectIdQuery.shape).extend(sessionRange));

/** The query of GET /api/sessions/{session_id}: `reveal`, and the range of calls shown (defaults as in the list). */
export const SessionDetailQuery = orderedRange(RevealQuery.extend(ProjectIdQuery.shape).extend(sessionRange));

/** A day, in milliseconds. */
const DAY_MS = 86_400_000;

/** Body of POST /api/rescore (also checked by the dashboard server before it forwards one). */
export const RescoreInput = z
  .strictObject({
    since: instantSchema("Earliest request created_at, inclusive (ISO-8601)"),
    until: instantSchema(`Latest request created_at, exclusive (ISO-8601); at most ${MAX_RESCORE_DAYS} days after since`),
  })
  .refine((b) => Date.parse(b.since) < Date.parse(b.until), { message: "must be before until", path: ["since"] })
  .refine((b) => Date.parse(b.until) - Date.parse(b.since) <= MAX_RESCORE_DAYS * DAY_MS, {
    message: `the range may span at most ${MAX_RESCORE_DAYS} days`,
    path: ["until"],
  })
  .openapi("RescoreInput");
