/**
 * Costs a user can believe and previews (issue 33, points 5 and 6), through the API worker in
 * workerd against PostgreSQL: a call logged without a cost reads back `cost_usd: null` from the
 * list, the detail and both export formats (never 0), as does the 0 older client libraries send
 * with `metadata.cost_source: "unknown"`; prompt-cache tokens are stored from the producer's
 * fields or the response's usage; the overview counts unpriced calls. The list's `preview` is the
 * start of the last user turn of each body format, clipped, and masked for a read-only key.
 */
import { describe, expect, it } from "vitest";
import { api, internal, logBody, newProject, postLog } from "./helpers";

const EMAIL = "jane.roe@example.com";

/** Creates a key with `scopes` for `projectId` through /internal; returns its value. */
async function keyWith(projectId: string, scopes: string[]): Promise<string> {
  const res = await api(`/internal/projects/${projectId}/keys`, { method: "POST", headers: internal, json: { name: "scoped", scopes } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

const as = (key: string, path: string) => api(path, { headers: { "X-Service-Key": key } });

/** Logs `body` with `key`; returns the request id. */
async function logged(key: string, body: Record<string, unknown>): Promise<string> {
  const res = await postLog(key, body);
  expect(res.status).toBe(202);
  return ((await res.json()) as { id: string }).id;
}

type Row = {
  id: string;
  cost_usd: number | null;
  cost_source: string | null;
  price_version: string | null;
  cache_read_tokens: number | null;
  cache_write_tokens: number | null;
  preview: string | null;
};

/** The list rows of the project by id (keyset mode), as `key` reads them. */
async function listed(key: string): Promise<Map<string, Row>> {
  const res = await as(key, "/api/requests/keyset?limit=100");
  expect(res.status).toBe(200);
  const { items } = (await res.json()) as { items: Row[] };
  return new Map(items.map((r) => [r.id, r]));
}

// A model no price table knows, so the scorer (not running here) could not price it either.
const unknownModel = { model: "in-house-7b", provider: "custom" };

describe("Unknown costs", () => {
  it("Should read back cost_usd null from the list, the page, the detail and both exports, and count it as unpriced", async () => {
    const { projectId, key } = await newProject("costs");
    const { cost_usd: _, ...withoutCost } = logBody(unknownModel);
    const absent = await logged(key, withoutCost);
    const explicitNull = await logged(key, { ...withoutCost, cost_usd: null });
    // Older client libraries: 0 with metadata.cost_source "unknown" means unknown.
    const oldClient = await logged(key, { ...withoutCost, cost_usd: 0, metadata: { cost_source: "unknown" } });
    const reported = await logged(key, { ...withoutCost, cost_usd: 0.25 });
    const reportedZero = await logged(key, { ...withoutCost, cost_usd: 0 });

    const rows = await listed(key);
    for (const id of [absent, explicitNull, oldClient]) expect(rows.get(id)).toMatchObject({ cost_usd: null, cost_source: null, price_version: null });
    expect(rows.get(reported)).toMatchObject({ cost_usd: 0.25, cost_source: "reported", price_version: null });
    expect(rows.get(reportedZero)).toMatchObject({ cost_usd: 0, cost_source: "reported" });

    const page = (await (await as(key, "/api/requests?page=1&page_size=10")).json()) as { items: Row[] };
    expect(page.items.find((r) => r.id === absent)!.cost_usd).toBeNull();
    const detail = (await (await as(key, `/api/requests/${absent}`)).json()) as Row;
    expect(detail.cost_usd).toBeNull();

    const jsonl = (await (await as(key, "/api/requests/export?format=jsonl")).text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Row);
    expect(jsonl.find((r) => r.id === absent)!.cost_usd).toBeNull();
    expect(jsonl.find((r) => r.id === reported)!.cost_usd).toBe(0.25);
    const csv = (await (await as(key, "/api/requests/export?format=csv")).text()).trim().split("\r\n");
    const costColumn = csv[0]!.split(",").indexOf("cost_usd");
    const csvCost = (id: string) => csv.find((l) => l.startsWith(id))!.split(",")[costColumn];
    expect(csvCost(absent)).toBe("");
    expect(csvCost(reported)).toBe("0.25");

    const now = Date.now();
    const range = `start=${new Date(now - 3_600_000).toISOString()}&end=${new Date(now + 60_000).toISOString()}`;
    const series = (await (await api(`/api/stats/timeseries?project_id=${projectId}&bucket=hour&${range}`, { headers: internal })).json()) as {
      points: { requests: number; cost_usd: number; unpriced: number }[];
    };
    const sum = (k: "requests" | "cost_usd" | "unpriced") => series.points.reduce((a, p) => a + p[k], 0);
    expect([sum("requests"), sum("unpriced")]).toEqual([5, 3]);
    expect(sum("cost_usd")).toBeCloseTo(0.25, 10);
  });

  it("Should store prompt-cache tokens from the producer's fields, else from the response's usage (OpenAI, Anthropic, Gemini)", async () => {
    const { key } = await newProject("cache tokens");
    const openai = await logged(
      key,
      logBody({ response_body: { usage: { prompt_tokens: 2000, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 1536 } } } }),
    );
    const anthropic = await logged(
      key,
      logBody({
        model: "claude-sonnet-4-5",
        provider: "anthropic",
        response_body: { usage: { input_tokens: 20, cache_read_input_tokens: 3000, cache_creation_input_tokens: 1200, output_tokens: 50 } },
      }),
    );
    const gemini = await logged(
      key,
      logBody({ model: "gemini-2.5-flash", provider: "google", response_body: { usageMetadata: { cachedContentTokenCount: 4096 } } }),
    );
    const explicit = await logged(
      key,
      logBody({ cache_read_tokens: 7, cache_write_tokens: 3, response_body: { usage: { prompt_tokens_details: { cached_tokens: 99 } } } }),
    );
    const none = await logged(key, logBody());
    const rows = await listed(key);
    const cache = (id: string) => [rows.get(id)!.cache_read_tokens, rows.get(id)!.cache_write_tokens];
    expect(cache(openai)).toEqual([1536, null]);
    expect(cache(anthropic)).toEqual([3000, 1200]);
    expect(cache(gemini)).toEqual([4096, null]);
    expect(cache(explicit)).toEqual([7, 3]);
    expect(cache(none)).toEqual([null, null]);
  });
});

describe("Previews", () => {
  it("Should show the start of the last user turn of each body format, clipped, none without user text", async () => {
    const { key } = await newProject("previews");
    const long = `${"word ".repeat(20)}call me on 4111 1111 1111 1111 tomorrow please, and more text after it`;
    const bodies: [Record<string, unknown>, string | null][] = [
      // OpenAI chat: the last user turn, not the system prompt nor an earlier turn.
      [
        {
          messages: [
            { role: "system", content: "You are terse." },
            { role: "user", content: "first   question" },
            { role: "assistant", content: "answer" },
            { role: "user", content: "second\n\nquestion" },
          ],
        },
        "second question",
      ],
      // Anthropic content blocks: text blocks joined, the tool result skipped.
      [
        {
          messages: [
            {
              role: "user",
              content: [
                { type: "tool_result", tool_use_id: "t1", content: "42" },
                { type: "text", text: "Summarise it" },
              ],
            },
          ],
        },
        "Summarise it",
      ],
      // Gemini contents with parts.
      [{ contents: [{ role: "user", parts: [{ text: "Hola" }, { text: "mundo" }] }] }, "Hola mundo"],
      // OpenAI Responses with a string input; completions' prompt.
      [{ input: "Write a haiku" }, "Write a haiku"],
      [{ prompt: "Once upon a time" }, "Once upon a time"],
      // No user text at all.
      [{ messages: [{ role: "system", content: "only a system prompt" }] }, null],
      // Clipped at a word boundary; the card number split by the cut is dropped whole.
      [{ messages: [{ role: "user", content: long }] }, `${"word ".repeat(20)}call me on…`],
    ];
    const ids: string[] = [];
    for (const [request_body] of bodies) ids.push(await logged(key, logBody({ request_body })));
    const rows = await listed(key);
    expect(ids.map((id) => rows.get(id)!.preview)).toEqual(bodies.map(([, preview]) => preview));
    expect(rows.get(ids[6]!)!.preview!.length).toBeLessThanOrEqual(121);
  });

  it("Should mask personal data in the preview for a read-only key, and show it raw to an admin key that reveals", async () => {
    const { projectId, key } = await newProject("preview masking");
    const id = await logged(key, logBody({ request_body: { messages: [{ role: "user", content: `Please email ${EMAIL} the invoice` }] } }));
    const reader = await keyWith(projectId, ["read"]);
    for (const path of ["/api/requests/keyset?limit=10", "/api/requests?page=1&page_size=10"]) {
      const { items } = (await (await as(reader, path)).json()) as { items: Row[] };
      expect(items.find((r) => r.id === id)!.preview, path).toBe("Please email [EMAIL] the invoice");
    }
    const admin = await keyWith(projectId, ["read", "admin"]);
    const { items } = (await (await as(admin, "/api/requests/keyset?limit=10&reveal=true")).json()) as { items: Row[] };
    expect(items.find((r) => r.id === id)!.preview).toBe(`Please email ${EMAIL} the invoice`);
  });
});
