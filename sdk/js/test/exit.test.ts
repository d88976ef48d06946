import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStandInApi } from "./support/servers.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");
let api: Awaited<ReturnType<typeof startStandInApi>>;
beforeAll(async () => {
  api = await startStandInApi();
});
afterAll(() => api.close());

function run(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(join(ROOT, "node_modules", ".bin", "tsx"), [script], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, ms: Date.now() - t0 }));
  });
}

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
