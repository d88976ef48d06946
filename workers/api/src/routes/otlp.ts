/**
 * POST /v1/traces: the OTLP/HTTP trace receiver (OTLP specification 1.x, "OTLP/HTTP"), so an
 * application instrumented with OpenTelemetry sends its LLM calls with
 * `OTEL_EXPORTER_OTLP_ENDPOINT=<api>` and its API key in `OTEL_EXPORTER_OTLP_HEADERS`.
 * Binary protobuf or JSON, gzip or not; spans describing an LLM call (docs/otlp.md) are stored and
 * scored like POST /internal/log's records, other spans are acknowledged and dropped.
 *
 * Answers: 200 `ExportTraceServiceResponse` in the request's encoding (with `partial_success`
 * when spans were malformed); 400 `{detail}` for a body that is no export request; 401 for a
 * missing or unknown key (`X-Service-Key` or `Authorization: Bearer`), 403 without the `ingest`
 * scope; 413 above `LOG_MAX_BYTES` (on the wire or decompressed); 415 for another media type or
 * content encoding; 429 with `Retry-After` when the monthly limit refused calls (those stored
 * stay stored, and the exporter's retry stores the rest once: ids come from the spans).
 * Documented with `registerPath` and served by a plain handler: the body is bytes, not JSON.
 */
import { z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { presentedKey } from "../middleware/credentials";
import { hashKey } from "../../../../src/auth/keys";
import { overQuota } from "../../../../src/billing/over-quota";
import { refusal } from "../../../../src/db/ingest";
import type { AppBindings } from "../env";
import { ApiError, unauthorized } from "../../../../src/http/errors";
import { encodingOf, readOtlpBody } from "../../../../src/otlp/body";
import { decodeJson, decodeProtobuf, MalformedOtlpError } from "../../../../src/otlp/decode";
import { ingestSpans } from "../../../../src/otlp/ingest";
import { exportResponse } from "../../../../src/otlp/response";
import { access, createRouter, errorResponse, forbiddenResponse } from "./openapi";
import { logInfo } from "../../../../src/logger";

const PATH = "/v1/traces";

const router = createRouter();
const { security, middleware } = access.key();

router.openAPIRegistry.registerPath({
  method: "post",
  path: PATH,
  tags: ["ingest"],
  summary: "OpenTelemetry trace export (OTLP/HTTP)",
  description:
    "OTLP/HTTP `ExportTraceServiceRequest` as binary protobuf or OTLP/JSON, optionally gzip-compressed. Spans following the OpenTelemetry GenAI, OpenInference or Vercel AI SDK conventions become logged calls (docs/otlp.md); other spans are acknowledged and dropped. The span id is the idempotency key.",
  security,
  request: {
    headers: z.object({
      "Content-Encoding": z.enum(["gzip", "identity"]).optional().openapi({ description: "gzip, or none" }),
    }),
    body: {
      required: true,
      content: {
        "application/x-protobuf": {
          schema: z.string().openapi({ format: "binary", description: "opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest" }),
        },
        "application/json": { schema: z.object({ resourceSpans: z.array(z.unknown()).optional() }).openapi("OtlpTraceExport") },
      },
    },
  },
  responses: {
    200: {
      description: "Accepted: ExportTraceServiceResponse in the request's encoding; `partialSuccess.rejectedSpans` counts malformed spans",
      content: {
        "application/x-protobuf": { schema: z.string().openapi({ format: "binary" }) },
        "application/json": {
          schema: z.object({ partialSuccess: z.object({ rejectedSpans: z.string(), errorMessage: z.string() }).optional() }).openapi("OtlpTraceExportResponse"),
        },
      },
    },
    400: errorResponse("The body is not an OTLP trace export (or its gzip stream is corrupt)"),
    401: errorResponse("Missing, unknown, revoked or expired API key"),
    ...forbiddenResponse,
    413: errorResponse("Body larger than LOG_MAX_BYTES (2 MiB by default), on the wire or decompressed"),
    415: errorResponse("Content-Type other than application/x-protobuf or application/json, or Content-Encoding other than gzip"),
    429: errorResponse("The project's monthly request limit refused calls (Retry-After: seconds until the reset)"),
    503: errorResponse("The database is unavailable"),
  },
});

/** Handles one export; see the module doc. */
async function exportTraces(c: Context<AppBindings>) {
  const encoding = encodingOf(c.req.header("Content-Type"));
  const bytes = await readOtlpBody(c.req.raw.body, c.req.header("Content-Encoding"), c.var.config.logMaxBytes);
  let decoded: ReturnType<typeof decodeJson>;
  try {
    decoded = encoding === "json" ? decodeJson(new TextDecoder().decode(bytes)) : decodeProtobuf(bytes);
  } catch (err) {
    if (err instanceof MalformedOtlpError) throw new ApiError(400, err.message);
    throw err;
  }
  const key = presentedKey(c)!; // keyAuth admitted it
  const keyHash = await hashKey(key);
  const projectId = c.var.projectId;
  const outcome = await ingestSpans(c.var.db, c.var.config, { projectId, keyHash, secrets: [key] }, decoded);
  logInfo("otlp export", { project_id: projectId, spans: decoded.spans.length + decoded.rejected, ...outcome });
  if (outcome.keyRefused > 0) throw unauthorized("invalid API key");
  if (outcome.overQuota > 0) {
    const refused = await refusal(c.var.db, { projectId }, c.var.config.tierLimits);
    if (!refused.ok && refused.reason === "quota") throw overQuota(refused);
  }
  const response = exportResponse(encoding, outcome.rejected, outcome.firstError);
  return c.body(response.body as never, 200, { "Content-Type": response.contentType });
}

const [database, auth] = middleware as MiddlewareHandler<AppBindings>[];
/** Registers POST /v1/traces. */
export const otlpRoutes = router.post(PATH, database!, auth!, exportTraces);
