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
});
