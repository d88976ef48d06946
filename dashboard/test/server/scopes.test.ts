/**
 * Issue 32 in the dashboard: a key's scopes are capped by its creator's role (a member may grant
 * ingest and read, an admin or owner also admin), a rotation keeps the key's scopes so a member
 * may not rotate an admin key, webhook URLs are whole for admins and owners only, and a raw read
 * by an admin key shows in the reveal audit as that key.
 */
import { describe, expect, it } from "vitest";
import { api, logBody, postLog } from "../../../test/api/helpers";
import type { ApiKey, NewApiKey, PiiRevealList, RotatedApiKey, WebhookList } from "../../server/contract";
import { dash, newUserAs, ownerWithProject } from "./helpers";

describe("Key scopes through the dashboard", () => {
  it("Should cap a member's keys at ingest and read: default, asking for admin (403), rotating an admin key (403)", async () => {
    const { owner, project } = await ownerWithProject();
    const base = `/api/projects/${project.id}/keys`;
    const member = await newUserAs(owner, project.organization_id, "member");

    const mine = await dash(base, { cookie: member.cookie, json: { name: "ci" } });
    expect(mine.status).toBe(201);
    const memberKey = (await mine.json()) as NewApiKey;
    expect(memberKey.scopes).toEqual(["ingest", "read"]);

    const asked = await dash(base, { cookie: member.cookie, json: { name: "sneaky", scopes: ["read", "admin"] } });
    expect(asked.status).toBe(403);
    expect(await asked.json()).toEqual({ detail: expect.stringContaining("admin") });

    const ownerKey = (await (await dash(base, { cookie: owner.cookie, json: { name: "ops" } })).json()) as NewApiKey;
    expect(ownerKey.scopes).toEqual(["ingest", "read", "admin"]);
    const rotate = await dash(`${base}/${ownerKey.id}/rotate`, { cookie: member.cookie, json: {} });
    expect(rotate.status).toBe(403);
    expect(await rotate.json()).toEqual({ detail: expect.stringContaining("admin scope") });

    // The member's own key rotates, keeping its scopes; the owner's still works unrotated.
    const rotated = await dash(`${base}/${memberKey.id}/rotate`, { cookie: member.cookie, json: {} });
    expect(rotated.status).toBe(201);
    expect(((await rotated.json()) as RotatedApiKey).key.scopes).toEqual(["ingest", "read"]);
    const listed = (await (await dash(base, { cookie: member.cookie })).json()) as { items: ApiKey[] };
    expect(listed.items.find((k) => k.id === ownerKey.id)).toMatchObject({ expires_at: null, scopes: ["ingest", "read", "admin"] });
  });

  it("Should let an admin create and rotate an admin key, and choose narrower scopes", async () => {
    const { owner, project } = await ownerWithProject();
    const base = `/api/projects/${project.id}/keys`;
    const admin = await newUserAs(owner, project.organization_id, "admin");
    const created = await dash(base, { cookie: admin.cookie, json: { name: "ops", scopes: ["admin", "read"] } });
    expect(created.status).toBe(201);
    const key = (await created.json()) as NewApiKey;
    expect(key.scopes).toEqual(["read", "admin"]);
    const rotated = await dash(`${base}/${key.id}/rotate`, { cookie: admin.cookie, json: {} });
    expect(rotated.status).toBe(201);
    expect(((await rotated.json()) as RotatedApiKey).key.scopes).toEqual(["read", "admin"]);
    const ingestOnly = await dash(base, { cookie: admin.cookie, json: { name: "proxy", scopes: ["ingest"] } });
    expect(((await ingestOnly.json()) as NewApiKey).scopes).toEqual(["ingest"]);
    expect((await dash(base, { cookie: admin.cookie, json: { name: "none", scopes: [] } })).status).toBe(422);
  });
});

describe("Webhook URLs by role", () => {
  it("Should show viewers and members the URL redacted to its origin, admins and owners whole", async () => {
    const { owner, project } = await ownerWithProject();
    const base = `/api/projects/${project.id}/webhooks`;
    const slack = "https://hooks.slack.com/services/T000/B000/XXXXSECRET";
    expect((await dash(base, { cookie: owner.cookie, json: { url: slack, format: "slack" } })).status).toBe(201);
    const urlsFor = async (cookie: string) => ((await (await dash(base, { cookie })).json()) as WebhookList).items.map((e) => e.url);
    for (const role of ["viewer", "member"] as const) {
      const user = await newUserAs(owner, project.organization_id, role);
      expect(await urlsFor(user.cookie), role).toEqual(["https://hooks.slack.com/…"]);
    }
    const admin = await newUserAs(owner, project.organization_id, "admin");
    expect(await urlsFor(admin.cookie)).toEqual([slack]);
    expect(await urlsFor(owner.cookie)).toEqual([slack]);
  });
});

describe("The reveal audit with key actors", () => {
  it("Should list a raw read by an admin key readably, as the key", async () => {
    const { owner, project } = await ownerWithProject();
    const created = (await (await dash(`/api/projects/${project.id}/keys`, { cookie: owner.cookie, json: { name: "auditor" } })).json()) as NewApiKey;
    const logged = await postLog(created.key, logBody({ metadata: { customer: "jane.roe@example.com" } }));
    const { id } = (await logged.json()) as { id: string };
    expect((await api(`/api/requests/${id}?reveal=true`, { headers: { "X-Service-Key": created.key } })).status).toBe(200);
    const audit = (await (await dash(`/api/projects/${project.id}/pii-reveals`, { cookie: owner.cookie })).json()) as PiiRevealList;
    expect(audit.items).toEqual([
      expect.objectContaining({ request_id: id, actor: "key", api_key_id: created.id, revealed_by: `key ${created.key_hint} (auditor)` }),
    ]);
  });
});
