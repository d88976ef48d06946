/**
 * Issue 33.1: under `npm run dev`, an application instrumented with OpenTelemetry sends its
 * OpenAI calls to POST /v1/traces. The real OpenTelemetry JS SDK (`BasicTracerProvider` with a
 * `BatchSpanProcessor`) and OpenLLMetry's `@traceloop/instrumentation-openai` (GenAI semantic
 * conventions v1.37 attributes) wrap the official `openai` SDK, which calls the OpenAI stand-in
 * directly (test/fixtures/openai/). Exported once with `@opentelemetry/exporter-trace-otlp-proto`
 * configured only by the README's environment variables, once with
 * `@opentelemetry/exporter-trace-otlp-http` (JSON, gzip): each call appears in GET /api/requests
 * with model, provider, tokens and messages, and gets six scores; the same spans exported again
 * store nothing more.
 */
import { randomUUID } from "node:crypto";
import { OTLPTraceExporter as HttpJsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { OpenAIInstrumentation } from "@traceloop/instrumentation-openai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestDetail } from "../harness/api";
import { expectSixScores, readJson, type GetE2E } from "./context";

const FIXTURE = "test/fixtures/openai/chat-completion.json";

/** The README's three variables, set for the exporter that reads them from the environment. */
const OTEL_VARIABLES = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_PROTOCOL"] as const;

/** Registers the OpenTelemetry ingest tests. */
export function otlpSuite(e2e: GetE2E): void {
  describe("OpenTelemetry-instrumented openai SDK exporting to /v1/traces (issue 33.1)", () => {
    const instrumentation = new OpenAIInstrumentation({ traceContent: true });
    const fixture = readJson(FIXTURE);
    const saved: Partial<Record<(typeof OTEL_VARIABLES)[number], string>> = {};

    beforeAll(() => {
      instrumentation.manuallyInstrument(OpenAI);
      for (const name of OTEL_VARIABLES) if (process.env[name] !== undefined) saved[name] = process.env[name];
    });

    afterAll(() => {
      instrumentation.disable();
      for (const name of OTEL_VARIABLES) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    });

    /** The spans the last `tracedCall` exported (to export them again). */
    let exported: ReadableSpan[] = [];

    /** One chat completion through the instrumented SDK, exported by `exporter`; the stored call, scored. */
    async function tracedCall(exporter: SpanExporter, question: string): Promise<RequestDetail> {
      const { providers, api } = e2e();
      const finished = new InMemorySpanExporter();
      const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter), new SimpleSpanProcessor(finished)] });
      instrumentation.setTracerProvider(provider);
      const before = await api.requestIds();
      const client = new OpenAI({ apiKey: "sk-e2e-otel-0123456789", baseURL: `${providers.openaiUrl}/v1`, maxRetries: 0 });
      const completion = await client.chat.completions.create(
        { model: "gpt-4o-mini", messages: [{ role: "user", content: question }] },
        { headers: { "x-test-fixture": "chat-completion" } },
      );
      expect(completion.choices[0]!.message.content).toBe(fixture.choices[0].message.content);
      await provider.forceFlush();
      exported = [...finished.getFinishedSpans()]; // shutdown empties the in-memory exporter
      await provider.shutdown();
      const [stored] = await api.newRequests(before, 1);
      return api.scored(stored!.id).then(async (scored) => ({ ...scored, ...(await api.get<RequestDetail>(`/api/requests/${stored!.id}?reveal=true`)) }));
    }

    function expectCall(detail: RequestDetail, question: string): void {
      expect(detail).toMatchObject({
        model: fixture.model,
        provider: "openai",
        prompt_tokens: fixture.usage.prompt_tokens,
        completion_tokens: fixture.usage.completion_tokens,
      });
      expect(detail.request_body.messages).toEqual([{ role: "user", content: question }]);
      expect(detail.response_body.choices[0].message).toEqual({ role: "assistant", content: fixture.choices[0].message.content });
      expect(detail.metadata.otel).toMatchObject({ trace_id: expect.stringMatching(/^[0-9a-f]{32}$/), span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
      expectSixScores(detail);
    }

    it("Should store and score a call exported in protobuf by an exporter set up from the README's three variables, once when exported again", async () => {
      const { stack } = e2e();
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = stack.apiUrl;
      process.env.OTEL_EXPORTER_OTLP_HEADERS = `Authorization=Bearer ${stack.key}`;
      process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/protobuf";
      const question = `otel proto ${randomUUID()}: what is the capital of France?`;
      const detail = await tracedCall(new ProtoExporter(), question);
      expectCall(detail, question);

      // The exporter's retry: the same spans exported again store nothing more.
      const { api } = e2e();
      const before = await api.requestIds();
      const again = new ProtoExporter();
      expect(exported.length).toBeGreaterThan(0);
      const result = await new Promise<{ code: number }>((resolve) => again.export(exported, resolve));
      expect(result.code).toBe(0); // ExportResultCode.SUCCESS
      await again.shutdown();
      expect([...(await api.requestIds())].filter((id) => !before.has(id))).toEqual([]);
      expect(before.has(detail.id)).toBe(true);
    });

    it("Should store and score a call exported as gzip-compressed OTLP/JSON", async () => {
      const { stack } = e2e();
      for (const name of OTEL_VARIABLES) delete process.env[name];
      const exporter = new HttpJsonExporter({ url: `${stack.apiUrl}/v1/traces`, headers: { "X-Service-Key": stack.key }, compression: "gzip" as never });
      const question = `otel json ${randomUUID()}: what is the capital of Italy?`;
      expectCall(await tracedCall(exporter, question), question);
    });
  });
}
