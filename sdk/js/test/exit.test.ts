import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript as run } from "./support/child.js";
import { startStandInApi } from "./support/servers.js";

let api: Awaited<ReturnType<typeof startStandInApi>>;
beforeAll(async () => {
  api = await startStandInApi();
});
afterAll(() => api.close());

describe("flush at process exit", () => {
  it("Should deliver a record logged just before a natural exit, without flush()", async () => {
    const result = await run(join(import.meta.dirname, "fixtures", "exit-script.ts"), { SERVICE_API_KEY: "slk_exit", SIGHTLINE_BASE_URL: api.url });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("hello exit");
    const logs = api.logs();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ model: "exit-model", response_body: { output: "hello exit" }, metadata: { trace: "greet" } });
    expect(api.received[0]?.headers["x-service-key"]).toBe("slk_exit");
  });

  it("Should not keep the process alive for long when the API is down", async () => {
    const result = await run(join(import.meta.dirname, "fixtures", "exit-script.ts"), {
      SERVICE_API_KEY: "slk_exit",
      SIGHTLINE_BASE_URL: "http://127.0.0.1:9",
    });
    expect(result.code).toBe(0);
    expect(result.ms).toBeLessThan(15_000); // bounded by exitTimeoutMs (5 s) plus start-up
  });
});
