/**
 * The smoke check after a deploy: the API answers /openapi.json; with the internal secret, a
 * key created for the project "deploy-smoke" (created once, reused on later deploys) logs one
 * call (202), the call reads back (200), and the key is revoked at the end (afterwards 401).
 * Throws with what failed; never prints the key or the secret.
 */

/** Options of `smokeCheck`. */
export interface SmokeOptions {
  apiUrl: string;
  /** Without it, only /openapi.json is checked. */
  internalSecret?: string;
  log: (line: string) => void;
  /** Per request (ms). */
  timeoutMs?: number;
}

/** Name of the project the smoke check logs into. */
export const SMOKE_PROJECT = "deploy-smoke";

/** Runs the smoke check against `apiUrl`. */
export async function smokeCheck(opts: SmokeOptions): Promise<void> {
  const base = opts.apiUrl.replace(/\/+$/, "");
  const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
    });
    const text = await res.text();
    return { status: res.status, json: () => JSON.parse(text) as any, text };
  };
  const expectStatus = (what: string, got: { status: number; text: string }, want: number) => {
    if (got.status !== want) throw new Error(`smoke check: ${what} answered ${got.status}, expected ${want}: ${got.text.slice(0, 300)}`);
  };

  const spec = await call("GET", "/openapi.json", {});
  expectStatus("GET /openapi.json", spec, 200);
  if (!spec.json().openapi) throw new Error("smoke check: /openapi.json is not an OpenAPI document");
  opts.log("  GET /openapi.json: 200");
  if (!opts.internalSecret) {
    opts.log("  no INTERNAL_API_SECRET known here: the logged-call check is skipped");
    return;
  }
  const admin = { "X-Internal-Secret": opts.internalSecret };
  const projects = await call("GET", "/internal/projects", admin);
  expectStatus("GET /internal/projects", projects, 200);
  let project = (projects.json().items as { id: string; name: string }[]).find((p) => p.name === SMOKE_PROJECT);
  if (!project) {
    const created = await call("POST", "/internal/projects", admin, { name: SMOKE_PROJECT });
    expectStatus("POST /internal/projects", created, 201);
    project = created.json();
  }
  const newKey = await call("POST", `/internal/projects/${project!.id}/keys`, admin, { name: `smoke ${new Date().toISOString()}` });
  expectStatus("POST /internal/projects/{id}/keys", newKey, 201);
  const { id: keyId, key } = newKey.json() as { id: string; key: string };
  try {
    const logged = await call(
      "POST",
      "/internal/log",
      { "X-Service-Key": key },
      {
        model: "smoke-check",
        provider: "sightline",
        prompt_tokens: 1,
        completion_tokens: 1,
        latency_ms: 1,
        request_body: { messages: [{ role: "user", content: "deploy smoke check" }] },
        response_body: { choices: [{ message: { role: "assistant", content: "ok" } }] },
      },
    );
    expectStatus("POST /internal/log", logged, 202);
    const read = await call("GET", `/api/requests/${logged.json().id}`, { "X-Service-Key": key });
    expectStatus("GET /api/requests/{id}", read, 200);
    opts.log("  a call logged with a new key: 202, read back: 200");
  } finally {
    const revoked = await call("POST", `/internal/projects/${project!.id}/keys/${keyId}/revoke`, admin);
    expectStatus("revoking the smoke key", revoked, 200);
  }
  const after = await call("GET", "/api/requests", { "X-Service-Key": key });
  expectStatus("the revoked smoke key", after, 401);
  opts.log("  the smoke key is revoked: 401");
}
