/**
 * Query parameters shared by the request list, its count, the export and the detail's
 * neighbours (one filter, one meaning: src/db/request-filters.ts), and their conversion.
 */
import { z } from "@hono/zod-openapi";
import type { RequestFilters } from "../../../../src/db/request-filters";
import { REVIEW_VERDICTS, SCORE_LABELS, SCORER_NAMES, type ScorerName } from "../../../../src/enums";
import { MAX_QUERY_CHARS } from "../../../../src/db/search-config";
import { isoInstant, ProjectIdQuery } from "./openapi";

/** Query key of the per-scorer label filter: `label[content_safety]=unsafe`. */
const labelKey = (name: ScorerName) => `label[${name}]` as const;

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

/** The parsed filter query as db filters. */
export function toFilters(q: z.infer<typeof RequestFilterQuery>): RequestFilters {
  const labels: Partial<Record<ScorerName, (typeof SCORE_LABELS)[number]>> = {};
  for (const name of SCORER_NAMES) {
    const label = q[labelKey(name)];
    if (label) labels[name] = label;
  }
  if (q.label && q.scorer) labels[q.scorer] = q.label;
  return {
    start: q.start ? new Date(q.start) : undefined,
    end: q.end ? new Date(q.end) : undefined,
    model: q.model,
    provider: q.provider,
    status: q.status,
    labels,
    scorer: q.scorer,
    min_score: q.min_score,
    reviewed: q.reviewed,
    q: q.q,
  };
}
