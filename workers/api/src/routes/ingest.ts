/**
 * POST /internal/log: log one LLM call (docs/interface.md section 4.2). Used by the capture proxy
 * and the client libraries. Stores the record under the project's quota, then enqueues a
 * scoring message `{request_ids: [id], created_at: [...]}` (src/queues/scoring-jobs.ts) and answers 202 `{id}`.
 */
import { z } from "@hono/zod-openapi";
import { ingestWithQuota } from "../../../../src/db/ingest";
import { markNotEnqueued } from "../../../../src/db/request-scoring";
import { recordKeyUse } from "../../../../src/db/key-usage";
import { isDataError, sqlStateOf } from "../../../../src/db/driver/unavailable";
import { INTERNAL_SECRET_HEADER, keyRefused, missingScope, presentedKey } from "../middleware/credentials";
import { redactSecrets } from "../../../../src/auth/redact";
import { ApiError, notFound } from "../../../../src/http/errors";
import { enqueueScoringJobs } from "../../../../src/queues/scoring-jobs";
import { LogRequestSchema } from "../../../../src/ingest/contract";
import { access, commonErrors, createRouter, errorResponse, forbiddenResponse, jsonBody, jsonResponse, routesTagged } from "./openapi";
import { logError } from "../../../../src/logger";
import { overQuota } from "../../../../src/billing/over-quota";

/** SQLSTATE classes caused by the record's values: 22 data exception, 54 program limit exceeded. */
const VALUE_ERROR_CLASSES: ReadonlySet<string> = new Set(["22", "54"]);

/** Largest clock skew accepted for a client-supplied `created_at` in the future. */
const MAX_FUTURE_SKEW_MS = 5 * 60_000;

const route = routesTagged("ingest")("post", "/internal/log", {
  summary: "Log one LLM call",
  ...access.ingest(),
  request: { body: jsonBody(LogRequestSchema) },
  responses: {
    202: jsonResponse(z.object({ id: z.uuid() }).openapi("LogAccepted"), "Stored; scoring is queued"),
    400: errorResponse("Malformed JSON"),
    413: errorResponse("Body larger than LOG_MAX_BYTES (2 MiB by default)"),
    ...forbiddenResponse,
    404: errorResponse("With the internal secret: no project has that project_id"),
    429: errorResponse("The project's monthly request limit is reached"),
    ...commonErrors,
  },
});

/** Registers POST /internal/log. */
export const ingestRoutes = createRouter().openapi(route, async (c) => {
  const body = c.req.valid("json");
  const createdAt = body.created_at ? new Date(body.created_at) : undefined;
  if (createdAt && createdAt.getTime() > Date.now() + MAX_FUTURE_SKEW_MS) throw new ApiError(422, "created_at: must not be in the future");

  // Say so when characters PostgreSQL cannot store were replaced (src/ingest/input.ts).
  const replaced = c.var.textReplaced;
  const metadata = replaced > 0 ? { ...body.metadata, text_replaced: replaced } : body.metadata;
  // The caller's own credentials never reach storage, as keys or values (src/auth/redact.ts).
  const secrets = [presentedKey(c), c.req.header(INTERNAL_SECRET_HEADER)].filter((s): s is string => !!s);
  const stored = redactSecrets({ request_body: body.request_body, response_body: body.response_body, metadata }, secrets);
  const record = { ...body, ...stored, created_at: createdAt };
  const result = await ingestWithQuota(c.var.db, c.var.credential, record, c.var.config.tierLimits, c.var.config.bodies).catch((err: unknown) => {
    // A value PostgreSQL cannot store (e.g. year 0, SQLSTATE 22008): the caller's data, not a fault here.
    if (isDataError(err, VALUE_ERROR_CLASSES)) throw new ApiError(422, `the record holds a value the database cannot store (SQLSTATE ${sqlStateOf(err)})`);
    throw err;
  });
  if (!result.ok && result.reason === "key") throw keyRefused(result.key);
  if (!result.ok && result.reason === "scope") throw missingScope("ingest");
  if (!result.ok && result.reason === "project") throw notFound("project");
  if (!result.ok) throw overQuota(result);

  if ("keyHash" in c.var.credential) await recordKeyUse(c.var.db, c.var.credential.keyHash);

  try {
    await enqueueScoringJobs(c.var.config.scoringQueue, [result]);
  } catch (err) {
    // Stored but not queued: leave it `pending` for the scorer's sweep, still answer 202.
    logError("scoring enqueue failed", { request_id: result.id }, err);
    await markNotEnqueued(c.var.db, [result]).catch(() => {});
  }
  return c.json({ id: result.id }, 202);
});
