/** A bad variable makes the API answer 500 naming it (src/config/api.ts, src/http/error-handler.ts). */
import { describe, expect, it } from "vitest";
import { internal, logBody, newProject, withEnv } from "./helpers";

describe("Invalid configuration", () => {
  it("Should answer 500 naming LOG_MAX_BYTES when it is not a positive integer", async () => {
    const res = await withEnv({ LOG_MAX_BYTES: "abc" }, "/internal/projects", { headers: internal });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ detail: 'server configuration is invalid: LOG_MAX_BYTES: expected a positive integer, got "abc"' });
  });

  it("Should answer 500 naming TIER_LIMITS when it is not a JSON tier table", async () => {
    const { key } = await newProject("bad tier limits");
    const res = await withEnv({ TIER_LIMITS: "{free: 50}" }, "/internal/log", {
      method: "POST",
      headers: { "X-Service-Key": key, "Content-Type": "application/json" },
      body: JSON.stringify(logBody()),
    });
    expect(res.status).toBe(500);
    const { detail } = (await res.json()) as { detail: string };
    expect(detail).toMatch(/^server configuration is invalid: TIER_LIMITS: expected a JSON object of free\/pro\/team\/enterprise/);
    expect(detail).toContain('got "{free: 50}"');
  });
});
