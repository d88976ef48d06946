/**
 * Streamed export of the requests matching a filter (GET /api/requests/export): keyset pages of
 * EXPORT_PAGE rows read on demand (./paged-stream.ts, with its own database handle), so memory
 * stays bounded and the export covers every matching row. PII in the bodies is masked (src/pii/mask.ts).
 */
import type { Db, DbConfig } from "../db/driver/client";
import { exportRows } from "../db/request-export";
import type { ScoreChip } from "../db/requests";
import type { RequestFilters } from "../db/request-filters";
import { type ExportFormat, SCORER_NAMES } from "../enums";
import { MASKER_VERSION, memoizedMasker } from "../pii/mask";
import { pagedDownload } from "./paged-stream";
import type { BodyBucket } from "../bodies/bucket";
import { readBodies, StoredJsonText, type WithBodies } from "../bodies/read";

/**
 * Rows per database round trip: large enough to amortise it, small enough to bound memory
 * (two pages are held at once: one being written, the next being read).
 */
const EXPORT_PAGE = 1000;

/** A page's row as the database gives it (bodies in R2 not yet read), and as exported. */
type PageRow = Awaited<ReturnType<typeof exportRows>>[number];
type ExportRow = WithBodies<PageRow>;

/**
 * Whether the export sends `row` as stored: ingest found, under the running `MASKER_VERSION`,
 * that masking changes none of its metadata and bodies (src/pii/mask.ts `piiFreeVersion`).
 * Masking was half of the export's CPU (bench/results/scale.md "Export"), and such a row's
 * bodies in R2 are not even parsed: their stored JSON text is sent (`StoredJsonText`).
 */
const piiFree = (row: { pii_free_version: number | null }) => row.pii_free_version === MASKER_VERSION;

/** The identity: what masking does to a `piiFree` row. */
const unchanged = (value: unknown) => value;

/** The JSON text of an exported value: a body's stored text as it is, anything else serialised. */
const jsonText = (v: unknown): string => (v instanceof StoredJsonText ? v.text : (JSON.stringify(v) ?? "null"));

/**
 * One exported record: list columns, bodies and metadata masked by `mask` (in place: the row's
 * JSON values are the export's own, fresh from the driver's JSON.parse) unless the row is
 * `piiFree`, scores keyed by scorer. Bodies and metadata come last (the JSONL line appends them).
 */
function record(row: ExportRow, maskAny: (value: unknown) => unknown) {
  const mask = piiFree(row) ? unchanged : maskAny;
  const scores: Record<string, Pick<ScoreChip, "score_value" | "score_label" | "verdict">> = {};
  for (const s of row.scores) scores[s.scorer_name] = { score_value: s.score_value, score_label: s.score_label, verdict: s.verdict };
  return {
    id: row.id,
    created_at: row.created_at.toISOString(),
    model: row.model,
    provider: row.provider,
    status: row.is_error ? "error" : "ok",
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    cost_usd: row.cost_usd,
    cost_source: row.cost_source,
    price_version: row.price_version,
    cache_read_tokens: row.cache_read_tokens,
    cache_write_tokens: row.cache_write_tokens,
    latency_ms: row.latency_ms,
    scoring_state: row.scoring_state,
    scores,
    metadata: mask(row.metadata),
    request_body: mask(row.request_body),
    response_body: mask(row.response_body),
  };
}

/** One JSONL line: `record` as JSON (keys in its order), a body's stored text spliced in as it is. */
function jsonLine(r: ReturnType<typeof record>): string {
  const { metadata, request_body, response_body, ...head } = r;
  return `${JSON.stringify(head).slice(0, -1)},"metadata":${jsonText(metadata)},"request_body":${jsonText(request_body)},"response_body":${jsonText(response_body)}}\n`;
}

/** CSV columns: the flat fields, then value/label/verdict per scorer, then the bodies as JSON. */
const CSV_COLUMNS = [
  "id",
  "created_at",
  "model",
  "provider",
  "status",
  "prompt_tokens",
  "completion_tokens",
  "cost_usd",
  "cost_source",
  "price_version",
  "cache_read_tokens",
  "cache_write_tokens",
  "latency_ms",
  "scoring_state",
  ...SCORER_NAMES.flatMap((n) => [`${n}_score`, `${n}_label`, `${n}_verdict`]),
  "metadata",
  "request_body",
  "response_body",
];

/** RFC 4180 field: quoted when it holds a comma, quote or line break; quotes doubled. Objects are their JSON text. */
function csvField(v: unknown): string {
  const s = v === null || v === undefined ? "" : typeof v === "string" ? v : typeof v === "object" ? jsonText(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

function csvLine(r: ReturnType<typeof record>): string {
  const flat: unknown[] = [
    r.id,
    r.created_at,
    r.model,
    r.provider,
    r.status,
    r.prompt_tokens,
    r.completion_tokens,
    r.cost_usd,
    r.cost_source,
    r.price_version,
    r.cache_read_tokens,
    r.cache_write_tokens,
    r.latency_ms,
    r.scoring_state,
  ];
  for (const n of SCORER_NAMES) {
    const s = r.scores[n];
    flat.push(s?.score_value ?? null, s?.score_label ?? null, s?.verdict ?? null);
  }
  flat.push(r.metadata, r.request_body, r.response_body);
  return `${flat.map(csvField).join(",")}\r\n`;
}

/** The streamed export response of `projectId`'s requests matching `filters` (`pagedDownload`), bodies read from `bodies` (src/bodies/). */
export function exportResponse(dbConfig: DbConfig, bodies: BodyBucket, projectId: string, filters: RequestFilters, format: ExportFormat): Response {
  const mask = memoizedMasker();
  const line = format === "csv" ? (row: ExportRow) => csvLine(record(row, mask)) : (row: ExportRow) => jsonLine(record(row, mask));
  const source = {
    pageSize: EXPORT_PAGE,
    head: format === "csv" ? `${CSV_COLUMNS.join(",")}\r\n` : undefined,
    // The page's rows first; their bodies in R2 when the page is written, so the database reads
    // the next page's rows while this page's bodies are read, inflated and serialised.
    // Each page continues after the previous page's last row, by its anchor (no lookup).
    readPage: (db: Db, last: PageRow | undefined, size: number) => exportRows(db, projectId, { ...filters, older: last?.anchor }, size),
    write: async (_db: Db, rows: PageRow[]) => (await readBodies(bodies, rows, piiFree)).map(line).join(""),
  };
  const type = format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8";
  return pagedDownload(dbConfig, source, type, "requests", format);
}
