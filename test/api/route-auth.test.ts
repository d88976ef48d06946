/**
 * Routes carry their own authentication (routes/openapi.ts, `access`): every operation of the
 * OpenAPI document states its `security`, and what it states is what is enforced: without
 * credentials every secured operation answers 401, and an operation open to the internal
 * secret only refuses a project API key. An operation open to API keys names the one scope a
 * key needs (issue 32), and a key holding every other scope gets 403 `{detail}`.
 */
import { describe, expect, it } from "vitest";
import { API_KEY_SCOPES } from "../../src/enums";
import { api, internal, logBody, newProject } from "./helpers";

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

  it("Should name one scope per key-open operation and refuse (403) a key holding only the others", async () => {
    const doc = (await (await api("/openapi.json")).json()) as { paths: Record<string, Record<string, Operation>> };
    const { projectId } = await newProject();
    const without: Record<string, string> = {};
    for (const scope of API_KEY_SCOPES) {
      const scopes = API_KEY_SCOPES.filter((s) => s !== scope);
      const res = await api(`/internal/projects/${projectId}/keys`, { method: "POST", headers: internal, json: { name: `no ${scope}`, scopes } });
      without[scope] = ((await res.json()) as { key: string }).key;
    }
    const checked: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        const keyScopes = op.security!.filter((s) => "ServiceKey" in s || "BearerKey" in s).map((s) => Object.values(s)[0]!);
        if (keyScopes.length === 0) continue;
        expect(new Set(keyScopes.map((s) => s.join())).size, name).toBe(1);
        const [scope] = keyScopes[0]!;
        expect(API_KEY_SCOPES, name).toContain(scope);
        const url = path.replace(/\{[^}]+\}/g, () => crypto.randomUUID());
        const body = method === "get" ? undefined : JSON.stringify(path === "/internal/log" ? logBody() : {});
        const res = await api(url, { method: method.toUpperCase(), headers: { "Content-Type": "application/json", "X-Service-Key": without[scope!]! }, body });
        expect(res.status, name).toBe(403);
        expect(await res.json(), name).toEqual({ detail: `this API key lacks the ${scope} scope` });
        checked.push(name);
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(20);
  });
});
