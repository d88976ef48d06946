/**
 * POST /internal/log: log one LLM call (docs/interface.md section 4.2). Used by the capture proxy
 * and the client libraries. Stores the record under the project's quota, then enqueues a
 * scoring job `{request_id, project_id}` and answers 202 `{id}`.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { tierLimits } from "../billing/tiers";
import { ingestWithQuota, markEnqueueFailed } from "../db/ingest";
import { keyRefused } from "../auth/middleware";
import { ApiError } from "../errors";
import type { ScoringJob } from "../queue";
import { commonErrors, createRouter, errorResponse, projectSecurity } from "./openapi";

const JsonObject = z.record(z.string(), z.unknown());

/** Body of POST /internal/log: the llm_requests fields (docs/interface.md section 2.3), sent by proxy and SDKs. */
export const LogRequestSchema = z
  .object({
    model: z.string().trim().min(1).max(256).openapi({ example: "gpt-4o-mini" }),
    provider: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .openapi({ description: "Provider name, e.g. openai, anthropic, cohere, custom", example: "openai" }),
    prompt_tokens: z.number().int().nonnegative().max(2_147_483_647).default(0),
    completion_tokens: z.number().int().nonnegative().max(2_147_483_647).default(0),
    cost_usd: z.number().nonnegative().max(1e9).default(0).openapi({ description: "Cost in US dollars" }),
    latency_ms: z
      .number()
      .nonnegative()
      .max(2_147_483_647)
      .default(0)
      .transform(Math.round)
      .openapi({ type: "number", description: "Latency in milliseconds (rounded)" }),
    request_body: JsonObject.openapi({ description: "The full request payload sent to the provider (JSON object)" }),
    response_body: z
      .unknown()
      .nullable()
      .default(null)
      .openapi({ description: "The full response payload (JSON), or null when there was none" }),
    created_at: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: "When the call started (ISO-8601); defaults to the time of receipt" }),
    metadata: JsonObject.default({}).openapi({
      description:
        "Capture-side extras. Conventional keys: status (success|error), error {type,message}, stream, ttft_ms, token_count_source (reported|estimated), trace, sdk",
    }),
  })
  .openapi("LogRequest");

/** What a producer sends to POST /internal/log (before defaults apply). */
export type LogRequest = z.input<typeof LogRequestSchema>;

/** Largest clock skew accepted for a client-supplied `created_at` in the future. */
const MAX_FUTURE_SKEW_MS = 5 * 60_000;

const route = createRoute({
  method: "post",
  path: "/internal/log",
  tags: ["ingest"],
  summary: "Log one LLM call",
  security: projectSecurity,
  request: { body: { required: true, content: { "application/json": { schema: LogRequestSchema } } } },
  responses: {
    202: {
      description: "Stored; scoring is queued",
      content: { "application/json": { schema: z.object({ id: z.uuid() }).openapi("LogAccepted") } },
    },
    400: errorResponse("Malformed JSON"),
    413: errorResponse("Body larger than LOG_MAX_BYTES (2 MiB by default)"),
    429: errorResponse("The project's monthly request limit is reached"),
    ...commonErrors,
  },
});

/** Registers POST /internal/log. */
export const logRoutes = createRouter().openapi(route, async (c) => {
  const body = c.req.valid("json");
  const createdAt = body.created_at ? new Date(body.created_at) : undefined;
  if (createdAt && createdAt.getTime() > Date.now() + MAX_FUTURE_SKEW_MS)
    throw new ApiError(422, "created_at: must not be in the future");

  const result = await ingestWithQuota(c.var.db, c.var.credential, { ...body, created_at: createdAt }, tierLimits(c.env.TIER_LIMITS));
  if (!result.ok && result.reason === "key") throw keyRefused(result.key);
  if (!result.ok) {
    const retryAfter = Math.max(1, Math.ceil((result.period_reset_at.getTime() - Date.now()) / 1000));
    throw new ApiError(
      429,
      `monthly request limit reached: the ${result.tier} tier allows ${result.limit} requests per period ` +
        `(${result.used} used); the counter resets at ${result.period_reset_at.toISOString()}`,
      { "Retry-After": String(retryAfter) },
    );
  }

  const job: ScoringJob = { request_id: result.id, project_id: result.projectId };
  try {
    await c.env.SCORING_QUEUE.send(job, { contentType: "json" });
  } catch (err) {
    // Stored but not queued: leave it `pending` for the scorer's sweep, still answer 202.
    console.error(JSON.stringify({ msg: "scoring enqueue failed", request_id: result.id, error: String(err) }));
    await markEnqueueFailed(c.var.db, result.id).catch(() => {});
  }
  return c.json({ id: result.id }, 202);
});
