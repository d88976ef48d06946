/**
 * The export's masking hint (docs/storage.md "At scale", src/pii/mask.ts `piiFreeVersion`):
 * both ingest paths record the running MASKER_VERSION in `llm_requests.pii_free_version` for a
 * call whose metadata and bodies masking leaves unchanged (null when it finds personal data);
 * the export skips masking exactly the rows marked with the running version, and masks the
 * others, so what it sends is what masking every row would send.
 */
import { describe, expect, it } from "vitest";
import { MASKER_VERSION, maskPiiJson } from "../../src/pii/mask";
import { consume, message } from "./capture-helpers";
import { api, logBody, newProject, postLog, sql } from "./helpers";

/** A chat whose user turn is `words` words (about 7 bytes each): over 1 KiB goes to R2. */
const chat = (words: number, extra = "") => ({
  model: "gpt-4o-mini",
  messages: [{ role: "user", content: `${extra}${Array.from({ length: words }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}`).join(" ")}` }],
});

async function logged(key: string, overrides: Record<string, unknown>): Promise<string> {
  const res = await postLog(key, logBody(overrides));
  expect(res.status).toBe(202);
  return ((await res.json()) as { id: string }).id;
}

async function hints(projectId: string): Promise<Map<string, number | null>> {
  const rows = await sql<{ id: string; pii_free_version: number | null }>("SELECT id, pii_free_version FROM llm_requests WHERE project_id = $1", [projectId]);
  return new Map(rows.map((r) => [r.id, r.pii_free_version]));
}

type Exported = { id: string; metadata: unknown; request_body: unknown; response_body: unknown; line: string };

/** The project's JSONL export by id, each row with its line as sent. */
async function exported(key: string, format: "jsonl" | "csv" = "jsonl"): Promise<Map<string, Exported>> {
  const res = await api(`/api/requests/export?format=${format}`, { headers: { "X-Service-Key": key } });
  expect(res.status).toBe(200);
  const text = await res.text();
  if (format === "csv") {
    const lines = text.split("\r\n").slice(1, -1);
    return new Map(lines.map((line) => [line.slice(0, 36), { id: line.slice(0, 36), line } as Exported]));
  }
  const rows = text
    .trim()
    .split("\n")
    .map((line) => ({ ...(JSON.parse(line) as Exported), line }));
  return new Map(rows.map((r) => [r.id, r]));
}

describe("the export's masking hint", () => {
  it("Should mark at ingest, on both paths, the calls without personal data, inline or in R2", async () => {
    const { key, projectId } = await newProject();
    const clean = await logged(key, {});
    const cleanLarge = await logged(key, { request_body: chat(300) });
    const mail = await logged(key, { request_body: chat(3, "write to jane.doe@example.com ") });
    const inMetadata = await logged(key, { metadata: { customer_phone: "+44 20 7946 0958" } });
    const batch = [
      await message(key, logBody({ request_body: chat(5, "batch ") })),
      await message(key, logBody({ request_body: chat(300, "card 4111 1111 1111 1111 ") })),
    ];
    const result = await consume(batch.map((m) => m.body));
    expect(result.explicitAcks.sort()).toEqual(["m0", "m1"]);

    const hint = await hints(projectId);
    expect(hint.get(clean)).toBe(MASKER_VERSION);
    expect(hint.get(cleanLarge)).toBe(MASKER_VERSION);
    expect(hint.get(mail)).toBeNull();
    expect(hint.get(inMetadata)).toBeNull();
    expect(hint.get(batch[0]!.recordId)).toBe(MASKER_VERSION);
    expect(hint.get(batch[1]!.recordId)).toBeNull();
  });

  it("Should export exactly what masking every row gives, and let only the running version skip it", async () => {
    const { key, projectId } = await newProject();
    const clean = await logged(key, { request_body: chat(300), response_body: { choices: [{ message: { role: "assistant", content: 'ok, "quoted"\n' } }] } });
    const mail = await logged(key, { request_body: chat(3, "write to jane.doe@example.com ") });

    const first = await exported(key);
    const firstCsv = await exported(key, "csv");
    const body = (id: string) => first.get(id)!.request_body;
    expect(body(clean)).toEqual(chat(300));
    expect(JSON.stringify(body(mail))).toContain("write to [EMAIL]");
    for (const row of first.values()) {
      expect(row.request_body).toEqual(maskPiiJson(row.request_body));
      expect(row.metadata).toEqual(maskPiiJson(row.metadata));
    }

    // A mark of another masker version is not trusted: the row is masked.
    await sql("UPDATE llm_requests SET pii_free_version = $2 WHERE id = $1", [mail, MASKER_VERSION - 1]);
    expect(JSON.stringify((await exported(key)).get(mail)!.request_body)).toContain("write to [EMAIL]");
    // The mark of the running version is what decides: such a row is sent as stored (here a
    // wrong mark set by hand, so that the skip shows).
    await sql("UPDATE llm_requests SET pii_free_version = $2 WHERE id = $1", [mail, MASKER_VERSION]);
    expect(JSON.stringify((await exported(key)).get(mail)!.request_body)).toContain("jane.doe@example.com");
    // Rows stored before the hint existed (null) are masked (and parsed): the clean row's lines
    // are the same bytes either way, in JSONL and in CSV.
    await sql("UPDATE llm_requests SET pii_free_version = NULL WHERE project_id = $1", [projectId]);
    const again = await exported(key);
    expect(again.get(clean)!.line).toBe(first.get(clean)!.line);
    expect((await exported(key, "csv")).get(clean)!.line).toBe(firstCsv.get(clean)!.line);
    expect(JSON.stringify(again.get(mail)!.request_body)).toContain("write to [EMAIL]");
  });
});
