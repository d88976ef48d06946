/**
 * Issue 26.2 and 26.5: personal data in what the dashboard shows. As a viewer, the list, the
 * detail, the export and a search never show or confirm a masked value; an owner's or admin's
 * reveal is recorded (who, when, which request, which fields) and read back by owners and admins
 * only, on the request and at /pii-reveals.
 */
import { describe, expect, it } from "vitest";
import { logBody, postLog, sql } from "../../../test/api/helpers";
import { PLANTED_TEXTS, piiShapeBodies } from "../../../test/fixtures/pii-shapes";
import type { PiiRevealList, RequestDetail, RequestPage } from "../../server/contract";
import { dash, newUserAs, projectsOf, signUp } from "./helpers";

const EMAIL = "jane.doe@example.com";
const CARD = "4111 1111 1111 1111";

/** A project whose one call carries an email and a card number in metadata and bodies. */
async function projectWithPii() {
  const owner = await signUp();
  const [project] = await projectsOf(owner);
  const created = await dash(`/api/projects/${project!.id}/keys`, { cookie: owner.cookie, json: { name: "pii" } });
  const { key } = (await created.json()) as { key: string };
  const body = logBody({
    metadata: { customer: EMAIL, note: `card ${CARD}` },
    request_body: { messages: [{ role: "user", content: `I am ${EMAIL}, my card is ${CARD}` }] },
    response_body: { choices: [{ message: { role: "assistant", content: `Noted, ${EMAIL}` } }] },
  });
  const { id } = (await (await postLog(key, body)).json()) as { id: string };
  const viewer = await newUserAs(owner, project!.organization_id, "viewer");
  return { owner, viewer, project: project!, id, base: `/api/projects/${project!.id}` };
}

/** True when `text` holds the email or the card number (digits with or without spaces). */
const leaks = (text: string) => text.includes(EMAIL) || text.includes(CARD) || text.includes(CARD.replaceAll(" ", ""));

describe("Personal data shown to a viewer", () => {
  it("Should mask the list, the detail and the export alike", async () => {
    const { viewer, base, id } = await projectWithPii();
    const list = await dash(`${base}/requests?limit=10`, { cookie: viewer.cookie });
    const page = (await list.json()) as RequestPage;
    expect(page.items.map((r) => r.id)).toEqual([id]);
    expect(leaks(JSON.stringify(page))).toBe(false);
    expect(page.items[0]!.metadata).toMatchObject({ customer: "[EMAIL]" });

    const detail = (await (await dash(`${base}/requests/${id}`, { cookie: viewer.cookie })).json()) as RequestDetail;
    expect(detail.pii_masked).toBe(true);
    expect(leaks(JSON.stringify(detail))).toBe(false);
    expect(detail.metadata).toMatchObject({ customer: "[EMAIL]" });
    expect(detail.reveals).toBeUndefined();

    for (const format of ["jsonl", "csv"]) {
      const exported = await dash(`${base}/requests/export?format=${format}`, { cookie: viewer.cookie });
      expect(exported.status).toBe(200);
      const text = new TextDecoder().decode(await exported.arrayBuffer());
      expect(text).toContain(id);
      expect(leaks(text)).toBe(false);
    }
  });

  it("Should show a viewer none of issue 32.2's shapes (keys, JSON numbers, 250 addresses, PEM, test-mode keys) in the list or the detail", async () => {
    const { owner, viewer, base } = await projectWithPii();
    const created = await dash(`${base}/keys`, { cookie: owner.cookie, json: { name: "shapes" } });
    const { key } = (await created.json()) as { key: string };
    const { id } = (await (await postLog(key, logBody(piiShapeBodies()))).json()) as { id: string };
    const detail = JSON.stringify(await (await dash(`${base}/requests/${id}`, { cookie: viewer.cookie })).json());
    const list = JSON.stringify(await (await dash(`${base}/requests?limit=10`, { cookie: viewer.cookie })).json());
    for (const shown of [detail, list]) {
      for (const planted of PLANTED_TEXTS) expect(shown, planted).not.toContain(planted);
    }
    expect(detail).toContain("[PRIVATE_KEY]");
    expect(detail).toContain('"card_number":"[CREDIT_CARD]"');
  });

  it("Should give a viewer's search for a masked value the same refusal whether or not it is stored", async () => {
    const { viewer, base } = await projectWithPii();
    for (const q of [EMAIL, CARD, "nobody.else@example.org", "5555 5555 5555 4444"]) {
      for (const path of ["requests?limit=10&", "requests/count?", "requests/export?"]) {
        const res = await dash(`${base}/${path}q=${encodeURIComponent(q)}`, { cookie: viewer.cookie });
        expect(res.status, `${path} q=${q}`).toBe(403);
        const body = (await res.json()) as { detail: string };
        expect(body.detail).toMatch(/^q: /);
        expect(leaks(body.detail)).toBe(false);
      }
    }
    // The exact model and provider filters are text searches too.
    const model = await dash(`${base}/requests?limit=10&model=${encodeURIComponent(EMAIL)}`, { cookie: viewer.cookie });
    expect(model.status).toBe(403);
    expect(await model.json()).toEqual({ detail: "model: searching for personal data needs the admin role or higher" });
    // Rewrites that PostgreSQL searches as the value are refused too (issue 32.3).
    for (const q of [`+${EMAIL}`, `%${EMAIL}`, `.${EMAIL}`, `_${EMAIL}`, CARD.replaceAll(" ", ","), "415,555,0132"]) {
      const res = await dash(`${base}/requests/count?q=${encodeURIComponent(q)}`, { cookie: viewer.cookie });
      expect(res.status, q).toBe(403);
    }
    // A search without personal data still works for the viewer.
    const ok = (await (await dash(`${base}/requests?limit=10&q=card`, { cookie: viewer.cookie })).json()) as RequestPage;
    expect(ok.items).toHaveLength(1);
    expect(leaks(JSON.stringify(ok))).toBe(false);
  });

  it("Should refuse a viewer's reveal (403) and record an owner's, readable by owners and admins only", async () => {
    const { owner, viewer, project, base, id } = await projectWithPii();
    expect((await dash(`${base}/requests/${id}?reveal=true`, { cookie: viewer.cookie })).status).toBe(403);
    expect(await sql("SELECT 1 FROM pii_reveals WHERE project_id = $1", [project.id])).toHaveLength(0);

    const revealed = (await (await dash(`${base}/requests/${id}?reveal=true`, { cookie: owner.cookie })).json()) as RequestDetail;
    expect(revealed.pii_masked).toBe(false);
    expect(JSON.stringify(revealed.request_body)).toContain(EMAIL);
    const rows = await sql<{ user_email: string; request_id: string; fields: string[] }>(
      "SELECT user_email, request_id, fields FROM pii_reveals WHERE project_id = $1",
      [project.id],
    );
    expect(rows).toEqual([{ user_email: owner.email, request_id: id, fields: ["model", "provider", "metadata", "request_body", "response_body", "preview"] }]);
    // The reveal shows on the request for owners and admins, in the masked view too.
    expect(revealed.reveals).toEqual([expect.objectContaining({ request_id: id, revealed_by: owner.email })]);
    const admin = await newUserAs(owner, project.organization_id, "admin");
    const seen = (await (await dash(`${base}/requests/${id}`, { cookie: admin.cookie })).json()) as RequestDetail;
    expect(seen.pii_masked).toBe(true);
    expect(seen.reveals?.map((r) => r.revealed_by)).toEqual([owner.email]);
    const audit = (await (await dash(`${base}/pii-reveals`, { cookie: admin.cookie })).json()) as PiiRevealList;
    expect(audit.items).toEqual([expect.objectContaining({ request_id: id, revealed_by: owner.email, fields: rows[0]!.fields })]);
    expect(Date.parse(audit.items[0]!.revealed_at)).toBeGreaterThan(Date.now() - 60_000);

    // Viewers and members read neither the audit nor the reveals on the request.
    const member = await newUserAs(owner, project.organization_id, "member");
    for (const user of [viewer, member]) {
      expect((await dash(`${base}/pii-reveals`, { cookie: user.cookie })).status).toBe(403);
      const detail = (await (await dash(`${base}/requests/${id}`, { cookie: user.cookie })).json()) as RequestDetail;
      expect(detail.reveals).toBeUndefined();
    }
  });
});
