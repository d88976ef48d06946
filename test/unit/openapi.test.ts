import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { createApp } from "../../workers/api/src/app";

describe("OpenAPI document", () => {
  it("Should validate as OpenAPI 3.1 with a standard validator", async () => {
    // /openapi.json needs no bindings: it is generated from the route declarations.
    const res = await createApp().request("/openapi.json", {}, {});
    expect(res.status).toBe(200);
    const doc = await res.json();
    const validator = new Validator();
    const result = await validator.validate(doc as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("Should state the API key scope each operation needs in its security requirements (issue 32)", async () => {
    type Op = { security: Record<string, string[]>[] };
    const doc = (await (await createApp().request("/openapi.json", {}, {})).json()) as { paths: Record<string, Record<string, Op>> };
    const keyed = (scope: string) => [{ ServiceKey: [scope] }, { BearerKey: [scope] }, { InternalSecret: [] }];
    expect(doc.paths["/api/policy"]!.put!.security).toEqual(keyed("admin"));
    expect(doc.paths["/api/policy"]!.get!.security).toEqual(keyed("read"));
    expect(doc.paths["/api/webhooks"]!.post!.security).toEqual(keyed("admin"));
    expect(doc.paths["/api/webhooks/{id}"]!.delete!.security).toEqual(keyed("admin"));
    expect(doc.paths["/api/rescore"]!.post!.security).toEqual(keyed("admin"));
    expect(doc.paths["/api/requests"]!.get!.security).toEqual(keyed("read"));
    expect(doc.paths["/internal/log"]!.post!.security).toEqual(keyed("ingest"));
    expect(doc.paths["/internal/keys/check"]!.get!.security).toEqual([{ ServiceKey: ["ingest"] }, { BearerKey: ["ingest"] }]);
    expect(doc.paths["/internal/projects"]!.get!.security).toEqual([{ InternalSecret: [] }]);
  });

  it("Should document each request's preview and its cost fields, an unknown cost as null (issue 33)", async () => {
    type Prop = { type?: string | string[]; anyOf?: { type: string }[]; description?: string };
    const doc = (await (await createApp().request("/openapi.json", {}, {})).json()) as {
      components: { schemas: Record<string, { properties: Record<string, Prop> }> };
    };
    const summary = doc.components.schemas.LlmRequestSummary!.properties;
    const nullable = (p: Prop | undefined) => JSON.stringify(p).includes('"null"');
    for (const field of ["preview", "cost_usd", "cost_source", "price_version", "cache_read_tokens", "cache_write_tokens"]) {
      expect(summary[field], field).toBeDefined();
      expect(nullable(summary[field]), field).toBe(true);
    }
    expect(summary.preview!.description).toContain("last user turn");
    const point = JSON.stringify(doc.components.schemas.Timeseries);
    expect(point).toContain('"unpriced"');
  });
});
