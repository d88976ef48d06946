/**
 * Routes carry their own authentication (routes/openapi.ts, `access`): every operation of the
 * OpenAPI document states its `security`, and what it states is what is enforced: without
 * credentials every secured operation answers 401, and an operation open to the internal
 * secret only refuses a project API key.
 */
import { describe, expect, it } from "vitest";
import { api, newProject } from "./helpers";

type Operation = { security?: Record<string, string[]>[] };

describe("Route security as documented is enforced", () => {
  it("Should declare security on every operation and answer 401 without credentials where it is required", async () => {
    const doc = (await (await api("/openapi.json")).json()) as { paths: Record<string, Record<string, Operation>> };
    const { key } = await newProject();
    const checked: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        expect(op.security, `${name} declares no security`).toBeDefined();
        const url = path.replace(/\{[^}]+\}/g, () => crypto.randomUUID());
        const init = { method: method.toUpperCase(), headers: { "Content-Type": "application/json" }, body: method === "get" ? undefined : "{}" };
        const schemes = new Set(op.security!.flatMap((s) => Object.keys(s)));
        if (schemes.size === 0) {
          expect(path, `${name} is public`).toBe("/webhook/payment");
          continue;
        }
        const anonymous = await api(url, init);
        expect(anonymous.status, name).toBe(401);
        expect(await anonymous.json(), name).toEqual({ detail: expect.any(String) });
        if (!schemes.has("ServiceKey")) {
          const withKey = await api(url, { ...init, headers: { ...init.headers, "X-Service-Key": key } });
          expect(withKey.status, `${name} with an API key`).toBe(401);
        }
        checked.push(name);
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(14);
  });
});
