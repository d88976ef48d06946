/**
 * The seeded calls of the scale benchmark, as deterministic functions of a call's global index
 * `i`: when it happened, its project (Zipf over the projects, as usage is across customers),
 * its body (a traffic call, ./corpus.ts), its outcome, its six scores. Generators recompute a
 * call from `i` instead of holding 10M of them.
 *
 * Calls of one stage (the calls added to reach the next size) are spread evenly, in time order,
 * over the whole range, so after each stage the table is a smaller deployment's 90 days. Large
 * bodies are grouped as ingest groups them (src/bodies/place.ts: one object per batch and
 * project): here a batch is `window` consecutive calls of the stream.
 */
import { SCORER_NAMES } from "../../src/enums";
import { bodyObjectKey } from "../../src/bodies/write";
import { copyText, rnd, uuidv7At } from "../lib/seed-rows";
import type { CorpusItem } from "./corpus";

/** What a stage generates from: the calls `[from, to)` of the whole stream. */
export interface StageShape {
  from: number;
  to: number;
  /** Project ids by rank (0 = the largest). */
  projects: string[];
  /** Cumulative Zipf weights over `projects` (last = 1). */
  zipf: Float64Array;
  /** The range's start and end, Unix ms. */
  startMs: number;
  endMs: number;
  /** Calls per ingest batch (one object per batch and project). */
  window: number;
  items: CorpusItem[];
  /** Calls whose last user turn carries a rare word (text-search routes), by index. */
  rare: Map<number, CorpusItem>;
}

/** Call `i` carries the rare word when `i % RARE_EVERY === RARE_AT`. */
export const RARE_EVERY = 10_000;
export const RARE_AT = 17;
/** The rare word itself (one call in `RARE_EVERY`). */
export const RARE_WORD = "quetzal";
/** Share of calls that failed upstream (no response body), as in bench/ingest's mix. */
const ERROR_SHARE = 0.02;

/**
 * Cumulative Zipf weights (exponent 1) over `n` ranks: rank r gets 1/(r+1) of the mass, over the
 * harmonic number H(n). With 1,000 projects the largest holds 13% of calls, the median 0.03%.
 */
export function zipfWeights(n: number): Float64Array {
  const out = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) out[r] = sum += 1 / (r + 1);
  for (let r = 0; r < n; r++) out[r]! /= sum;
  return out;
}

/** The rank whose cumulative weight first reaches `u` (binary search). */
function rankOf(zipf: Float64Array, u: number): number {
  let lo = 0;
  let hi = zipf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (zipf[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One seeded call's identity: id, time (Unix ms), project rank and corpus item. */
export interface SeededCall {
  i: number;
  id: string;
  at: number;
  rank: number;
  item: CorpusItem;
  error: boolean;
}

/** Call `i` of `shape`'s stage. */
export function callAt(shape: StageShape, i: number): SeededCall {
  const n = shape.to - shape.from;
  const at = shape.startMs + Math.floor(((i - shape.from + rnd(i, 8)) * (shape.endMs - shape.startMs)) / n);
  const item = shape.rare.get(i) ?? shape.items[Math.floor(rnd(i, 9) * shape.items.length)]!;
  return { i, id: uuidv7At(at, i), at, rank: rankOf(shape.zipf, rnd(i, 7)), item, error: rnd(i, 3) < ERROR_SHARE };
}

/** The body objects of one batch being built: project id -> members so far. */
interface OpenObject {
  key: string;
  projectId: string;
  parts: Buffer[];
  size: number;
  newest: number;
}

/** What a stage wrote to R2, and the `body_objects` rows (COPY text) that register it. */
export interface ObjectStats {
  objects: number;
  bytes: number;
  members: number;
  calls: number;
  bodyObjectLines: string[];
}

/**
 * COPY text of the stage's `llm_requests` rows, in time order. Every `window` calls, the batch's
 * objects are handed to `flush` (awaited before the next rows), so the seed writes objects
 * before their rows reach PostgreSQL's COPY, as ingest does.
 */
export async function* requestRows(
  shape: StageShape,
  stats: ObjectStats,
  flush: (objects: { key: string; bytes: Buffer }[]) => Promise<void>,
): AsyncGenerator<string> {
  let chunk = "";
  let open = new Map<number, OpenObject>();
  const close = async () => {
    const objects = [...open.values()];
    open = new Map();
    if (!objects.length) return;
    await flush(objects.map((o) => ({ key: o.key, bytes: Buffer.concat(o.parts, o.size) })));
    for (const o of objects) {
      const at = new Date(o.newest).toISOString();
      stats.bodyObjectLines.push(`${o.key}\t${o.projectId}\t${at}\t${at}\n`);
      stats.objects++;
      stats.bytes += o.size;
    }
  };
  for (let i = shape.from; i < shape.to; i++) {
    if ((i - shape.from) % shape.window === 0) {
      if (chunk) yield chunk;
      chunk = "";
      await close();
    }
    const c = callAt(shape, i);
    const projectId = shape.projects[c.rank]!;
    const request = c.item.request;
    const response = c.error ? { inline: "null", member: null } : c.item.response;
    let pointer = "\\N\t\\N\t\\N\t\\N\t\\N";
    if (request.member || response.member) {
      let o = open.get(c.rank);
      if (!o) open.set(c.rank, (o = { key: bodyObjectKey(projectId, uuidv7At(c.at, i, 77)), projectId, parts: [], size: 0, newest: c.at }));
      const place = (m: Buffer | null) => {
        if (!m) return "\\N\t\\N";
        const at = o!.size;
        o!.parts.push(m);
        o!.size += m.length;
        stats.members++;
        return `${at}\t${m.length}`;
      };
      pointer = `${o.key}\t${place(request.member)}\t${place(response.member)}`;
      o.newest = c.at;
      stats.calls++;
    }
    const metadata = c.error ? '{"status": "error", "error": {"type": "rate_limit", "message": "429"}}' : '{"status": "success"}';
    const item = c.item;
    const cost = ((item.prompt_tokens * 0.15 + item.completion_tokens * 0.6) / 1e6).toFixed(10);
    chunk += `${c.id}\t${projectId}\t${item.model}\t${item.provider}\t${item.prompt_tokens}\t${c.error ? 0 : item.completion_tokens}\t${cost}\t${Math.floor(200 + rnd(i, 4) * 1800)}\t${copyText(request.inline)}\t${copyText(response.inline === "null" ? null : response.inline)}\t${pointer}\t${metadata}\t${new Date(c.at).toISOString()}\tscored\t${copyText(item.tsv)}\t${copyText(item.preview)}\t${item.pii_free_version ?? "\\N"}\n`;
    if (chunk.length > 1 << 20) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
  await close();
}

/** Columns of `requestRows`' lines, in order. */
export const REQUEST_COLUMNS =
  "id, project_id, model, provider, prompt_tokens, completion_tokens, cost_usd, latency_ms, request_body, response_body, " +
  "body_key, request_body_offset, request_body_length, response_body_offset, response_body_length, metadata, created_at, scoring_state, search_tsv, preview, pii_free_version";

/** A short rationale per scorer and label, of the length the scorers write. */
const RATIONALE: Record<string, string> = {
  safe: "no hazard category matched in the request or the answer",
  unsafe: "S2:credential_theft: the answer gives working steps",
  unscored: "no retrieved documents in the call",
};

/** COPY text of the stage's `safety_scores`: six per call; ~3% unsafe (4-5), ~5% unscored, the rest safe (1-3). */
export function* scoreRows(shape: StageShape): Generator<string> {
  let chunk = "";
  for (let i = shape.from; i < shape.to; i++) {
    const c = callAt(shape, i);
    const projectId = shape.projects[c.rank]!;
    const at = new Date(c.at).toISOString(); // a score carries its request's created_at (docs/storage.md)
    for (let k = 0; k < SCORER_NAMES.length; k++) {
      const p = rnd(i, 10 + k);
      const [value, label] =
        p < 0.03 ? [p < 0.015 ? "5" : "4", "unsafe"] : p < 0.08 ? ["\\N", "unscored"] : [String(1 + Math.floor(rnd(i, 20 + k) * 3)), "safe"];
      chunk += `${uuidv7At(c.at + 2000, i, 1 + k)}\t${c.id}\t${projectId}\t${SCORER_NAMES[k]}\t${value}\t${label}\t${RATIONALE[label]}\t${at}\tscorers@bench\n`;
    }
    if (chunk.length > 1 << 20) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

/** Columns of `scoreRows`' lines, in order. */
export const SCORE_COLUMNS = "id, request_id, project_id, scorer_name, score_value, score_label, rationale, created_at, scorer_version";
