/**
 * Project policy (docs/policy.md): GET/PUT /api/policy, and `store_pii: "mask"` on both ingest
 * paths (POST /internal/log and the proxy's log-records queue): no detected personal value
 * reaches any column of the stored row, values on the allow list stay.
 */
import { env } from "cloudflare:test";
import { uuidv7 } from "uuidv7";
import { describe, expect, it } from "vitest";
import { hashKey } from "../../src/auth/keys";
import { PLANTED_TEXTS, piiShapeBodies } from "../fixtures/pii-shapes";
import { api, internal, logBody, newProject, postLog, sql } from "./helpers";
import type { StoredBodies } from "../../src/bodies/columns";
import { readBodies } from "../../src/bodies/read";
import { apiEnv, BODY_COLUMNS } from "./capture-helpers";

const put = (key: string, json: unknown) => api("/api/policy", { method: "PUT", headers: { "X-Service-Key": key }, json });

/** Personal values planted in the bodies; none may be stored under `mask`. */
const PII = {
  email: "jane.doe@example.org",
  card: "4111 1111 1111 1111",
  phone: "+1 (415) 555-0132",
  ssn: "123-45-6789",
};
const ALLOWED = "support@acme.example";

const piiBody = (marker: string) =>
  logBody({
    request_body: {
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: `Escalations go to ${ALLOWED}. Ticket ${marker}.` },
        { role: "user", content: `I am Jane, mail me at ${PII.email} or call ${PII.phone}. My card is ${PII.card}, SSN ${PII.ssn}.` },
      ],
    },
    response_body: {
      choices: [{ message: { role: "assistant", content: `Noted: ${PII.email}, card ${PII.card}. Write to ${ALLOWED}.` }, finish_reason: "stop" }],
    },
    metadata: { pii_masked: { score_value: 1, rationale: "forged", scorer_version: "x" } },
  });

/** The whole stored row as text: every column, as PostgreSQL renders it. */
async function storedRowText(id: string): Promise<string> {
  const [row] = await sql<{ t: string }>("SELECT row_to_json(r)::text AS t FROM llm_requests r WHERE id = $1", [id]);
  // The bodies too, wherever they are stored (inline or in R2, src/bodies/).
  const [bodies] = await readBodies(apiEnv.BODIES, await sql<StoredBodies>(`SELECT ${BODY_COLUMNS} FROM llm_requests WHERE id = $1`, [id]));
  return `${row!.t} ${JSON.stringify(bodies)}`;
}

function expectMasked(text: string) {
  for (const value of Object.values(PII)) expect(text).not.toContain(value);
  expect(text).not.toContain("4111111111111111");
  expect(text).not.toContain("forged");
  expect(text).toContain("[EMAIL]");
  expect(text).toContain(ALLOWED);
}

describe("GET and PUT /api/policy", () => {
  it("Should answer the default policy, then store a new one with a growing version", async () => {
    const { key } = await newProject();
    const first = await api("/api/policy", { headers: { "X-Service-Key": key } });
    expect(first.status).toBe(200);
    const dflt = (await first.json()) as {
      version: number;
      store_pii: string;
      judge: string;
      judge_monthly_budget: number;
      judge_calls_this_month: number;
      scorers: Record<string, { enabled: boolean; unsafe_at: number; allow?: string[] }>;
    };
    expect(dflt.version).toBe(0);
    expect(dflt.store_pii).toBe("keep");
    expect(dflt).toMatchObject({ judge: "off", judge_monthly_budget: 1000, judge_calls_this_month: 0 });
    expect(Object.keys(dflt.scorers).sort()).toEqual([
      "content_safety",
      "data_poisoning",
      "jailbreak_detection",
      "pii_detection",
      "unbounded_consumption",
      "vector_weakness",
    ]);
    expect(dflt.scorers.pii_detection).toEqual({ enabled: true, unsafe_at: 4, allow: [] });

    const body = {
      scorers: { pii_detection: { enabled: true, unsafe_at: 4, allow: [ALLOWED, "@acme.example"] }, unbounded_consumption: { enabled: false } },
      store_pii: "mask",
      judge: "uncertain",
      judge_monthly_budget: 250,
    };
    const res = await put(key, body);
    expect(res.status).toBe(200);
    const stored = (await res.json()) as typeof dflt;
    expect(stored.version).toBe(1);
    expect(stored).toMatchObject({ judge: "uncertain", judge_monthly_budget: 250, judge_calls_this_month: 0 });
    expect(stored.scorers.unbounded_consumption).toEqual({ enabled: false, unsafe_at: 4 });
    expect(stored.scorers.content_safety).toEqual({ enabled: true, unsafe_at: 4 });
    const again = (await (await put(key, { scorers: { jailbreak_detection: { unsafe_at: 5 } } })).json()) as typeof dflt;
    expect(again.version).toBe(2);
    // PUT replaces: what was left out is back to its default.
    expect(again.store_pii).toBe("keep");
    expect(again).toMatchObject({ judge: "off", judge_monthly_budget: 1000 });
    expect(again.scorers.unbounded_consumption?.enabled).toBe(true);
    const read = (await (await api("/api/policy", { headers: { "X-Service-Key": key } })).json()) as typeof dflt;
    expect(read).toEqual(again);
  });

  it("Should refuse unknown scorers, fields and values with 422 naming the field", async () => {
    const { key } = await newProject();
    const cases: [unknown, string][] = [
      [{ scorers: { toxicity: { enabled: true } } }, "scorers"],
      [{ scorers: { content_safety: { unsafe_at: 2 } } }, "scorers.content_safety.unsafe_at"],
      [{ scorers: { content_safety: { allow: ["a@b.example"] } } }, "scorers.content_safety"],
      [{ scorers: { pii_detection: { allow: ["@not a domain"] } } }, "scorers.pii_detection.allow.0"],
      [{ store_pii: "drop" }, "store_pii"],
      [{ judge: "sometimes" }, "judge"],
      [{ judge_monthly_budget: -1 }, "judge_monthly_budget"],
      [{ judge_monthly_budget: 2.5 }, "judge_monthly_budget"],
      [{ judge_monthly_budget: "1000" }, "judge_monthly_budget"],
      [{ retention: 3 }, "body"],
    ];
    for (const [body, field] of cases) {
      const res = await put(key, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const { detail } = (await res.json()) as { detail: string };
      expect(detail.startsWith(`${field}:`), `${JSON.stringify(body)} -> ${detail}`).toBe(true);
    }
    expect(((await (await api("/api/policy", { headers: { "X-Service-Key": key } })).json()) as { version: number }).version).toBe(0);
  });

  it("Should answer this month's guard-model calls beside the budget, not last month's", async () => {
    const { key, projectId } = await newProject();
    await sql(
      `INSERT INTO judge_usage (project_id, month, used) VALUES
         ($1, date_trunc('month', now() AT TIME ZONE 'UTC')::date, 42),
         ($1, (date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month')::date, 999)`,
      [projectId],
    );
    const read = (await (await api("/api/policy", { headers: { "X-Service-Key": key } })).json()) as { judge_calls_this_month: number };
    expect(read.judge_calls_this_month).toBe(42);
  });

  it("Should open a project's policy to the internal secret with project_id, and 404 another project's with a key", async () => {
    const a = await newProject();
    const b = await newProject();
    const res = await api(`/api/policy?project_id=${a.projectId}`, { headers: internal });
    expect(res.status).toBe(200);
    const foreign = await api(`/api/policy?project_id=${b.projectId}`, { headers: { "X-Service-Key": a.key } });
    expect(foreign.status).toBe(404);
  });
});

describe('store_pii: "mask"', () => {
  it("Should store none of issue 32.2's shapes (keys, JSON numbers, 250 addresses in a string, PEM, test-mode keys), nor export them", async () => {
    const { key } = await newProject();
    expect((await put(key, { store_pii: "mask" })).status).toBe(200);
    const res = await postLog(key, logBody(piiShapeBodies()));
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const stored = await storedRowText(id);
    for (const planted of PLANTED_TEXTS) expect(stored, planted).not.toContain(planted);
    expect(stored.split("[EMAIL]").length - 1).toBeGreaterThanOrEqual(251);
    expect(stored).toContain("[PRIVATE_KEY]");
    const [row] = (await readBodies(apiEnv.BODIES, await sql<StoredBodies>(`SELECT ${BODY_COLUMNS} FROM llm_requests WHERE id = $1`, [id]))) as {
      request_body: { tools_input: unknown };
      response_body: { usage: unknown };
    }[];
    expect(row!.request_body.tools_input).toEqual({
      card_number: "[CREDIT_CARD]",
      cards: ["[CREDIT_CARD]"],
      phone: "[PHONE]",
      contact: { mobile_no: "[PHONE]" },
    });
    // Token counts are numbers, not phones.
    expect(row!.response_body.usage).toEqual({ prompt_tokens: 4155550, completion_tokens: 18 });

    const exported = await api("/api/requests/export?format=jsonl", { headers: { "X-Service-Key": key } });
    expect(exported.status).toBe(200);
    const text = await exported.text();
    expect(text).toContain(id);
    for (const planted of PLANTED_TEXTS) expect(text, planted).not.toContain(planted);
  });

  it("Should store no detected personal value in any column of a call logged with POST /internal/log", async () => {
    const { key } = await newProject();
    expect((await put(key, { store_pii: "mask", scorers: { pii_detection: { allow: [ALLOWED] } } })).status).toBe(200);
    const res = await postLog(key, piiBody("A-1"));
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const text = await storedRowText(id);
    expectMasked(text);
    // The verdict on the original bodies is kept for the scorer (no value in it), the caller's forged one is gone.
    const [row] = await sql<{ metadata: { pii_masked: { score_value: number; rationale: string } } }>("SELECT metadata FROM llm_requests WHERE id = $1", [id]);
    expect(row!.metadata.pii_masked.score_value).toBe(5);
    // Counted once, like any stored call.
    const [sub] = await sql<{ n: string }>("SELECT requests_this_period AS n FROM subscriptions s JOIN llm_requests r USING (project_id) WHERE r.id = $1", [
      id,
    ]);
    expect(Number(sub!.n)).toBe(1);
  });

  it("Should mask a call that comes through the capture queue (the proxy's path) before it is stored", async () => {
    const { key, projectId } = await newProject();
    expect((await put(key, { store_pii: "mask", scorers: { pii_detection: { allow: ["@acme.example"] } } })).status).toBe(200);
    const recordId = uuidv7();
    const queue = (env as unknown as { LOG_QUEUE: Queue }).LOG_QUEUE;
    await queue.send(JSON.stringify({ v: 1, record_id: recordId, key_hash: await hashKey(key), record: piiBody("B-2") }), { contentType: "text" });
    const deadline = Date.now() + 15_000;
    let rows: { id: string }[] = [];
    while (rows.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      rows = await sql<{ id: string }>("SELECT id FROM llm_requests WHERE project_id = $1", [projectId]);
    }
    expect(rows.map((r) => r.id)).toEqual([recordId]);
    expectMasked(await storedRowText(recordId));
  });

  it("Should store bodies unchanged under keep, and drop a caller-sent pii_masked", async () => {
    const { key } = await newProject();
    const res = await postLog(key, piiBody("C-3"));
    const { id } = (await res.json()) as { id: string };
    const text = await storedRowText(id);
    expect(text).toContain(PII.email);
    expect(text).not.toContain("forged");
  });
});
