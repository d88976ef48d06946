/**
 * GET /api/reviews/export and GET /api/reviews/calibration (issue 33.3): reviewed calls as a
 * labelled dataset, and what each `unsafe_at` would catch and falsely flag among them.
 *
 * The export streams the project's reviewed calls matching the request list's filters
 * (./request-query.ts) as JSONL in the scorer development data's item format
 * (src/reviews/dataset.ts). Stored text is masked (`[EMAIL]`...) unless the caller asks
 * `reveal=true`: an API key needs the `admin` scope for it and each raw call is recorded in the
 * reveal audit first (./pii-access.ts); the dashboard server never asks it.
 */
import { z } from "@hono/zod-openapi";
import { calibration } from "../../../../src/db/reviews";
import { type ReviewedCall, reviewedPage } from "../../../../src/db/review-export";
import { memoizedMasker } from "../../../../src/pii/mask";
import { pagedDownload } from "../../../../src/export/paged-stream";
import { recordReveals } from "../../../../src/pii/reveals";
import { STORED_TEXT_FIELDS } from "../../../../src/pii/views";
import { reviewedItem } from "../../../../src/reviews/dataset";
import { createRouter, jsonResponse, projectRoutesTagged } from "./openapi";
import { assertReadAllowed } from "./pii-access";
import { toFilters } from "./request-query";
import { CalibrationSchema } from "./schemas";
import { ProjectIdQuery, ReviewExportQuery } from "./queries";

/** Reviewed calls per database page of the export (bodies of up to LOG_MAX_BYTES each). */
const EXPORT_PAGE = 200;

const route = projectRoutesTagged("reviews");

const exportRoute = route("get", "/api/reviews/export", "read", {
  summary: "Reviewed calls matching the request list's filters, as labelled JSONL for `npm run eval`",
  description:
    "One JSON object per reviewed call, newest first, in the item format of the scorer development data: `id`, `source` " +
    "(`sightline:<project_id>`), `request_body`, `response_body`, `expected[<scorer>]` (`unsafe` for a confirmed review, `safe` for a " +
    "false positive), and `sightline` (the call's current scores and each review's reviewed score, with `changed`). Only calls with " +
    "a review (of `scorer`, when given) are exported. Personal data in the bodies is masked as `[KIND]` unless `reveal=true` " +
    "(API keys: `admin` scope, audited).",
  request: { query: ReviewExportQuery },
  responses: {
    200: { description: "The dataset", content: { "application/x-ndjson": { schema: z.string() } } },
  },
});

const calibrationRoute = route("get", "/api/reviews/calibration", "read", {
  summary: "Over the project's reviewed calls: per scorer and unsafe_at 2-5, the confirmed calls caught and the false positives flagged",
  description: "Each review is judged against the call's current score of its scorer (after any re-score); every scorer is listed.",
  request: { query: ProjectIdQuery },
  responses: { 200: jsonResponse(CalibrationSchema, "The counts") },
});

/** Registers the review dataset routes. */
export const reviewRoutes = createRouter()
  .openapi(exportRoute, async (c) => {
    const q = c.req.valid("query");
    await assertReadAllowed(c, q);
    const filters = toFilters(q);
    const projectId = c.var.projectId;
    const raw = q.reveal === "true";
    const keyId = c.var.authKind === "api_key" ? c.var.apiKeyId : undefined;
    const mask = raw ? (v: unknown) => v : memoizedMasker();
    // A streamed body: the typed response of a content type naming "json" expects c.json().
    const download: Response = pagedDownload<ReviewedCall>(
      c.var.config.db,
      {
        pageSize: EXPORT_PAGE,
        readPage: (db, last, size) => reviewedPage(db, c.var.config.bodies, projectId, filters, last?.id, size),
        write: async (db, calls) => {
          if (raw && keyId) {
            await recordReveals(
              db,
              projectId,
              calls.map((r) => r.id),
              { apiKeyId: keyId },
              STORED_TEXT_FIELDS,
            );
          }
          return calls.map((call) => `${JSON.stringify(reviewedItem(call, mask))}\n`).join("");
        },
      },
      "application/x-ndjson; charset=utf-8",
      "reviewed",
      "jsonl",
    );
    return download as never;
  })
  .openapi(calibrationRoute, async (c) => c.json({ scorers: await calibration(c.var.db, c.var.projectId) }, 200));
