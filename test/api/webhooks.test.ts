/**
 * Alert webhook routes (docs/webhooks.md) on the API worker with its deployed configuration
 * (wrangler.jsonc: WEBHOOK_ALLOW_LOOPBACK "false"), and, for the test event to the local
 * receiver (test/setup/webhook-receiver.ts), the same app with `npm run dev`'s setting.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { createApp } from "../../workers/api/src/app";
import type { AppEnv } from "../../workers/api/src/env";
import type { Received } from "../setup/webhook-receiver";
import { api, newProject, sql, expectProblem } from "./helpers";

const RECEIVER = (env as unknown as { TEST_RECEIVER_URL: string }).TEST_RECEIVER_URL;
const devApp = createApp();

/** A request to the API as `npm run dev` configures it (loopback webhook URLs allowed). */
async function devApi(path: string, key: string, init: { method: string; json?: unknown }) {
  const ctx = createExecutionContext();
  const res = await devApp.fetch(
    new Request(`http://api.test${path}`, {
      method: init.method,
      headers: { "X-Service-Key": key, "Content-Type": "application/json" },
      body: init.json === undefined ? null : JSON.stringify(init.json),
    }),
    { ...(env as unknown as AppEnv), WEBHOOK_ALLOW_LOOPBACK: "true" },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

const post = (key: string, json: unknown) => api("/api/webhooks", { method: "POST", headers: { "X-Service-Key": key }, json });
const get = (key: string, path: string) => api(path, { headers: { "X-Service-Key": key } });

type Created = { id: string; secret: string; url: string; min_score: number; scorers: string[] | null; format: string; project_id: string };

describe("POST /api/webhooks", () => {
  it("Should answer 201 with the endpoint and a whsec_ secret shown once, with defaults for min_score, scorers and format", async () => {
    const { key, projectId } = await newProject();
    const res = await post(key, { url: "https://hooks.example.com/sightline" });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Created;
    expect(body).toMatchObject({ project_id: projectId, url: "https://hooks.example.com/sightline", min_score: 4, scorers: null, format: "standard" });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const list = (await (await get(key, "/api/webhooks")).json()) as { items: Record<string, unknown>[]; total: number };
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ id: body.id, min_score: 4 });
    expect(list.items[0]).not.toHaveProperty("secret");
  });

  it("Should keep the chosen scorers (once each), min_score and format", async () => {
    const { key } = await newProject();
    const res = await post(key, {
      url: "https://hooks.slack.com/services/T0/B0/x",
      min_score: 3,
      scorers: ["pii_detection", "pii_detection", "content_safety"],
      format: "slack",
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ min_score: 3, scorers: ["pii_detection", "content_safety"], format: "slack" });
  });

  it.each([
    [{ url: "https://hooks.example.com/a", colour: "red" }, "colour"],
    [{ url: "https://hooks.example.com/a", scorers: ["toxicity"] }, "scorers.0"],
    [{ url: "https://hooks.example.com/a", scorers: [] }, "scorers"],
    [{ url: "https://hooks.example.com/a", format: "teams" }, "format"],
    [{ url: "https://hooks.example.com/a", min_score: 6 }, "min_score"],
    [{ url: "https://hooks.example.com/a", min_score: 2.5 }, "min_score"],
    [{ url: "not a url" }, "url"],
    [{}, "url"],
  ])("Should refuse %j with 422 naming %s", async (json, field) => {
    const { key } = await newProject();
    const res = await post(key, json);
    await expectProblem(res, 422, field);
  });

  it.each([
    "http://hooks.example.com/plain-http",
    "https://localhost/x",
    "https://app.localhost/x",
    "https://127.0.0.1/x",
    "https://127.1.2.3:8443/x",
    "https://0x7f000001/x",
    "https://10.1.2.3/x",
    "https://172.16.0.1/x",
    "https://172.31.255.255/x",
    "https://192.168.1.1/x",
    "https://169.254.169.254/latest/meta-data",
    "https://100.64.0.1/x",
    "https://0.0.0.0/x",
    "https://[::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://[::ffff:10.0.0.1]/x",
    "https://[fc00::1]/x",
    "https://[fd12:3456::1]/x",
    "https://[fe80::1]/x",
    "https://printer.local/x",
    "https://metadata.google.internal/computeMetadata/v1",
    "https://router.home.arpa/x",
    "https://intranet/x",
  ])("Should refuse %s in the deployed configuration (SSRF) with 422 naming url", async (url) => {
    const { key } = await newProject();
    const res = await post(key, { url });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/^url: /);
  });

  it("Should accept a loopback URL under npm run dev's setting, and still refuse other private ranges there", async () => {
    const { key } = await newProject();
    expect((await devApi("/api/webhooks", key, { method: "POST", json: { url: `${RECEIVER}/ok/x` } })).status).toBe(201);
    expect((await devApi("/api/webhooks", key, { method: "POST", json: { url: "http://localhost:9/x" } })).status).toBe(201);
    expect((await devApi("/api/webhooks", key, { method: "POST", json: { url: "http://10.0.0.1/x" } })).status).toBe(422);
  });
});

describe("DELETE, test and deliveries of /api/webhooks/{id}", () => {
  it("Should answer 404 for another project's endpoint and for unknown ids", async () => {
    const owner = await newProject();
    const other = await newProject();
    const { id } = (await (await post(owner.key, { url: "https://hooks.example.com/a" })).json()) as Created;
    for (const target of [id, crypto.randomUUID()]) {
      const headers = { "X-Service-Key": other.key };
      expect((await api(`/api/webhooks/${target}`, { method: "DELETE", headers })).status).toBe(404);
      expect((await api(`/api/webhooks/${target}/test`, { method: "POST", headers })).status).toBe(404);
      const res = await api(`/api/webhooks/${target}/deliveries`, { headers });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: "webhook endpoint not found" });
    }
    expect((await get(owner.key, "/api/webhooks")).status).toBe(200);
  });

  it("Should delete an endpoint (204), then not find it", async () => {
    const { key } = await newProject();
    const { id } = (await (await post(key, { url: "https://hooks.example.com/a" })).json()) as Created;
    expect((await api(`/api/webhooks/${id}`, { method: "DELETE", headers: { "X-Service-Key": key } })).status).toBe(204);
    expect((await api(`/api/webhooks/${id}`, { method: "DELETE", headers: { "X-Service-Key": key } })).status).toBe(404);
    expect(((await (await get(key, "/api/webhooks")).json()) as { total: number }).total).toBe(0);
  });

  it("Should send a signed webhook.test event and list it among the deliveries", async () => {
    const { key } = await newProject();
    const token = crypto.randomUUID();
    const created = (await (await devApi("/api/webhooks", key, { method: "POST", json: { url: `${RECEIVER}/ok/${token}` } })).json()) as Created;
    const res = await devApi(`/api/webhooks/${created.id}/test`, key, { method: "POST" });
    expect(res.status).toBe(200);
    const delivery = (await res.json()) as { id: string };
    expect(delivery).toMatchObject({ endpoint_id: created.id, event_type: "webhook.test", state: "delivered", attempts: 1, last_status: 204, score_id: null });
    const [got] = (await (await fetch(`${RECEIVER}/__received/${token}`)).json()) as Received[];
    const payload = new Webhook(created.secret).verify(got!.body, got!.headers) as { type: string; data: { endpoint_id: string } };
    expect(payload).toMatchObject({ type: "webhook.test", data: { endpoint_id: created.id } });
    expect(got!.headers["webhook-id"]).toBe(delivery.id);
    const list = (await (await get(key, `/api/webhooks/${created.id}/deliveries`)).json()) as { items: { id: string }[]; total: number };
    expect(list.items.map((d) => d.id)).toEqual([delivery.id]);
  });

  it("Should record a failed test event as dead with its status", async () => {
    const { key } = await newProject();
    const created = (await (
      await devApi("/api/webhooks", key, { method: "POST", json: { url: `${RECEIVER}/fail/${crypto.randomUUID()}` } })
    ).json()) as Created;
    const res = await devApi(`/api/webhooks/${created.id}/test`, key, { method: "POST" });
    expect(await res.json()).toMatchObject({ state: "dead", last_status: 500, last_error: "HTTP 500" });
  });

  it("Should show dead-letter records, newest first, and narrow to them with state=dead", async () => {
    const { key, projectId } = await newProject();
    const { id } = (await (await post(key, { url: "https://hooks.example.com/a" })).json()) as Created;
    await sql(
      `INSERT INTO alert_deliveries (id, endpoint_id, project_id, event_type, state, attempts, last_error, created_at) VALUES
       (gen_random_uuid(), $1, $2, 'score.unsafe', 'dead', 11, 'HTTP 503', now() - interval '1 hour'),
       (gen_random_uuid(), $1, $2, 'score.unsafe', 'delivered', 1, null, now())`,
      [id, projectId],
    );
    const all = (await (await get(key, `/api/webhooks/${id}/deliveries`)).json()) as { items: { state: string }[] };
    expect(all.items.map((d) => d.state)).toEqual(["delivered", "dead"]);
    const dead = (await (await get(key, `/api/webhooks/${id}/deliveries?state=dead`)).json()) as {
      items: { attempts: number; last_error: string }[];
      total: number;
    };
    expect(dead).toMatchObject({ total: 1, items: [{ attempts: 11, last_error: "HTTP 503" }] });
  });
});
