/**
 * The bodies the scale benchmark stores: the ordinary calls of `traffic/train.jsonl` in the
 * shared evaluation folder (real chats, RAG and tool calls; JSON text median 1.5 KB, p90 5.4
 * KB), each prepared once as ingest would store it: its JSON text, a gzip member for each body
 * over `INLINE_BODY_BYTES` (src/bodies/codec.ts), and the preview and search document computed
 * by PostgreSQL with the ingest statement's own SQL (`requestPreview`, `requestSearchDocument`).
 * A seeded call reuses its item's prepared parts, so seeding 10M calls costs no gzip or
 * tokenising per call.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import type pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { INLINE_BODY_BYTES } from "../../src/bodies/codec";
import { bodyText } from "../../src/bodies/write";
import { piiFreeVersion } from "../../src/pii/mask";
import { requestPreview, requestSearchDocument } from "../../src/db/schema";
import { evalDir } from "../../scripts/lib/eval-items";

/** One body as stored: inline JSON text, or a gzip member for R2 (then `inline` is null). */
export interface PreparedBody {
  inline: string | null;
  member: Buffer | null;
}

/** One traffic call prepared for seeding. */
export interface CorpusItem {
  model: string;
  provider: string;
  prompt_tokens: number;
  completion_tokens: number;
  request: PreparedBody;
  response: PreparedBody;
  preview: string | null;
  /** The search document as tsvector text (`search_tsv`'s COPY value). */
  tsv: string;
  /** Bytes of the two bodies' JSON text (what the call would weigh inline). */
  json_bytes: number;
  /** `llm_requests.pii_free_version` as ingest computes it (the seeded metadata holds no personal data). */
  pii_free_version: number | null;
}

/** The provider a model name belongs to (the seeded calls' `provider` column). */
function providerOf(model: string): string {
  if (model.startsWith("claude")) return "anthropic";
  if (model.startsWith("gemini")) return "google";
  if (model.startsWith("command")) return "cohere";
  return "openai";
}

/** A body's stored form: its JSON text inline when at most `INLINE_BODY_BYTES`, else one gzip member. */
function prepare(body: unknown): PreparedBody {
  const text = bodyText(body);
  return Buffer.byteLength(text) <= INLINE_BODY_BYTES ? { inline: text, member: null } : { inline: null, member: gzipSync(text) };
}

/** Appends ` <word>` to the last user turn's text (the rare-word calls of the text-search routes). */
export function withWord(body: { messages?: { role: string; content: unknown }[] }, word: string): unknown {
  const messages = [...(body.messages ?? [])];
  const at = messages.map((m) => m.role).lastIndexOf("user");
  if (at >= 0 && typeof messages[at]!.content === "string") messages[at] = { ...messages[at]!, content: `${messages[at]!.content} ${word}` };
  return { ...body, messages };
}

/** Prepares one call's bodies; the preview and search document come from PostgreSQL (`pool`). */
export async function prepareItem(pool: pg.Pool, requestBody: unknown, responseBody: unknown): Promise<CorpusItem> {
  const db = drizzle({ client: pool });
  const req = sql`${bodyText(requestBody)}::jsonb`;
  const res = sql`${bodyText(responseBody)}::jsonb`;
  const derived = await db.execute<{ preview: string | null; tsv: string }>(
    sql`SELECT ${requestPreview(req)} AS preview, (${requestSearchDocument(req, res)})::text AS tsv`,
  );
  const body = requestBody as { model?: string };
  const usage = (responseBody as { usage?: { prompt_tokens?: number; completion_tokens?: number } } | null)?.usage;
  const model = body.model ?? "gpt-4o-mini";
  return {
    model,
    provider: providerOf(model),
    prompt_tokens: usage?.prompt_tokens ?? 0,
    completion_tokens: usage?.completion_tokens ?? 0,
    request: prepare(requestBody),
    response: prepare(responseBody),
    preview: derived.rows[0]!.preview,
    tsv: derived.rows[0]!.tsv,
    json_bytes: Buffer.byteLength(bodyText(requestBody)) + Buffer.byteLength(bodyText(responseBody)),
    pii_free_version: piiFreeVersion(JSON.parse(bodyText(requestBody)), JSON.parse(bodyText(responseBody))),
  };
}

/** Every call of `traffic/train.jsonl`, prepared (a few seconds: one small query per item). */
export async function loadCorpus(pool: pg.Pool): Promise<{ items: CorpusItem[]; raw: { request_body: unknown; response_body: unknown }[] }> {
  const raw = readFileSync(join(evalDir(), "traffic/train.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { request_body: unknown; response_body: unknown });
  const items: CorpusItem[] = [];
  for (const r of raw) items.push(await prepareItem(pool, r.request_body, r.response_body));
  return { items, raw };
}
