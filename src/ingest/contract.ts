/**
 * The ingest contract: the body of POST /internal/log (docs/interface.md section 4.2), the fields
 * of the llm_requests record (section 2.3) as producers send them. Imported by the route that
 * validates it and by the producers that build it (the capture proxy; the client libraries
 * mirror it), so the shape has one source.
 */
import { z } from "@hono/zod-openapi";
import { instantSchema } from "../instant";

const JsonObject = z.record(z.string(), z.unknown());

/** Body of POST /internal/log: the llm_requests fields (docs/interface.md section 2.3), sent by proxy and SDKs. */
export const LogRequestSchema = z
  .object({
    model: z.string().trim().min(1).max(256).openapi({ example: "gpt-4o-mini" }),
    provider: z.string().trim().min(1).max(64).openapi({ description: "Provider name, e.g. openai, anthropic, cohere, custom", example: "openai" }),
    prompt_tokens: z
      .number()
      .int()
      .nonnegative()
      .max(2_147_483_647)
      .default(0)
      .openapi({ description: "Input tokens, cached ones included (for Anthropic: input_tokens + cache_creation_input_tokens + cache_read_input_tokens)" }),
    completion_tokens: z.number().int().nonnegative().max(2_147_483_647).default(0),
    cost_usd: z.number().nonnegative().max(1e9).nullable().optional().openapi({
      description:
        'Cost in US dollars. Omit it (or send null) when unknown: Sightline then prices the call from its price table when it knows the model and tokens, and reports `cost_usd: null` otherwise. A 0 sent with `metadata.cost_source: "unknown"` (older client libraries) also means unknown.',
    }),
    cache_read_tokens: z.number().int().nonnegative().max(2_147_483_647).nullable().optional().openapi({
      description:
        "Prompt tokens read from the provider's prompt cache, a part of prompt_tokens (OpenAI `prompt_tokens_details.cached_tokens`, Anthropic `cache_read_input_tokens`, Gemini `cachedContentTokenCount`). When omitted, taken from the response body's usage.",
    }),
    cache_write_tokens: z.number().int().nonnegative().max(2_147_483_647).nullable().optional().openapi({
      description:
        "Prompt tokens written to the provider's prompt cache, a part of prompt_tokens (Anthropic `cache_creation_input_tokens`). When omitted, taken from the response body's usage.",
    }),
    latency_ms: z
      .number()
      .nonnegative()
      .max(2_147_483_647)
      .default(0)
      .transform(Math.round)
      .openapi({ type: "number", description: "Latency in milliseconds (rounded)" }),
    request_body: JsonObject.openapi({ description: "The full request payload sent to the provider (JSON object)" }),
    response_body: z.unknown().nullable().default(null).openapi({ description: "The full response payload (JSON), or null when there was none" }),
    created_at: instantSchema("When the call started (ISO-8601; defaults to the time of receipt)").optional(),
    metadata: JsonObject.default({}).openapi({
      description:
        "Capture-side extras. Conventional keys: status (success|error), error {type,message}, stream, ttft_ms, token_count_source (reported|estimated), trace, sdk",
    }),
  })
  .openapi("LogRequest");

/** What a producer sends to POST /internal/log (before defaults apply). */
export type LogRequest = z.input<typeof LogRequestSchema>;
