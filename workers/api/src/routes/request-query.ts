/**
 * Query parameters shared by the request list, its count, the export and the detail's
 * neighbours (one filter, one meaning: src/db/request-filters.ts), and their conversion.
 */
import type { z } from "@hono/zod-openapi";
import type { RequestFilters } from "../../../../src/db/request-filters";
import { type SCORE_LABELS, SCORER_NAMES, type ScorerName } from "../../../../src/enums";
import { type RequestFilterQuery, labelKey } from "./queries";

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
