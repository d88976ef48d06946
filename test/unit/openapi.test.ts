import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";

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
});
