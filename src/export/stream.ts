/**
 * Streamed export of the requests matching a filter (GET /api/requests/export): keyset pages of
 * EXPORT_PAGE rows read on demand (./paged-stream.ts, with its own database handle), so memory
 * stays bounded and the export covers every matching row. PII in the bodies is masked (src/pii/mask.ts).
 */
import type { Db, DbConfig } from "../db/driver/client";
import { exportPage } from "../db/request-export";
import type { ScoreChip } from "../db/requests";
import type { RequestFilters } from "../db/request-filters";
import { type ExportFormat, SCORER_NAMES } from "../enums";
import { memoizedMasker } from "../pii/mask";
import { pagedDownload } from "./paged-stream";
import type { BodyBucket } from "../bodies/bucket";

/**
 * Rows per database round trip: large enough to amortise it, small enough to bound memory
 * (two pages are held at once: one being written, the next being read).
 */
const EXPORT_PAGE = 1000;

type ExportRow = Awaited<ReturnType<typeof exportPage>>[number];

/**
 * One exported record: list columns, bodies and metadata masked by `mask` (in place: the row's
 * JSON values are the export's own, fresh from the driver's JSON.parse), scores keyed by scorer.
 */
function record(row: ExportRow, mask: (value: unknown) => unknown) {
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

/** RFC 4180 field: quoted when it holds a comma, quote or line break; quotes doubled. */
function csvField(v: unknown): string {
  const s = v === null || v === undefined ? "" : typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v);
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
  const line = format === "csv" ? (row: ExportRow) => csvLine(record(row, mask)) : (row: ExportRow) => `${JSON.stringify(record(row, mask))}\n`;
  const source = {
    pageSize: EXPORT_PAGE,
    head: format === "csv" ? `${CSV_COLUMNS.join(",")}\r\n` : undefined,
    readPage: (db: Db, cursor: string | undefined, size: number) => exportPage(db, bodies, projectId, filters, cursor, size),
    write: async (_db: Db, rows: ExportRow[]) => rows.map(line).join(""),
  };
  const type = format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8";
  return pagedDownload(dbConfig, source, type, "requests", format);
}
