import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSdkTypes, SDK_TYPES_FILE } from "../../scripts/lib/sdk-types";

describe("JS client library's copy of the ingest contract", () => {
  it("Should match what `npm run sdk:types` renders from LogRequestSchema (run it after changing the contract)", () => {
    const committed = readFileSync(join(import.meta.dirname, "../..", SDK_TYPES_FILE), "utf8");
    expect(committed).toBe(renderSdkTypes());
  });

  it("Should render every field of the contract", () => {
    const text = renderSdkTypes();
    for (const field of ["model: string;", "latency_ms: number;", "request_body: Record<string, unknown>;", "response_body: unknown;", "created_at: string;"])
      expect(text).toContain(field);
  });
});
