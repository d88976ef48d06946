/**
 * Logged LLM calls (`llm_requests`) with their scoring state and full-text search document. Part of the PostgreSQL schema (drizzle-orm, src/db/schema/index.ts);
 * migrations/ is generated from it by `npm run db:generate`.
 */
import { type SQL, sql } from "drizzle-orm";
import { boolean, customType, index, integer, jsonb, numeric, pgTable, primaryKey, smallint, text, uuid } from "drizzle-orm/pg-core";
import { COST_SOURCES, SCORING_STATES } from "../../enums";
import { timestamptz, createdAt } from "./columns";
import { projectRecord } from "./projects";
import { SEARCH_CONFIG } from "../search-config";

/**
 * Characters of each body's text that the full-text index covers: the first 50,000 of the
 * request's and the first 50,000 of the response's. PostgreSQL refuses a tsvector over 1 MiB
 * (SQLSTATE 54000, https://www.postgresql.org/docs/current/textsearch-limitations.html), which
 * a 1.5 MB answer of 150k distinct numbers or 115k distinct words exceeds; 100,000 characters
 * make at most about 650 KB of tsvector even when every word is distinct and every character
 * 4 bytes of UTF-8 (measured: 600 KB for 50,000 one-character 4-byte words). The call itself is
 * always stored whole; only words past this point cannot be found with `q`.
 */
export const SEARCH_INDEXED_CHARS = 50_000;

/**
 * Characters of a request's preview (`preview`): the start of its last user turn, whitespace
 * collapsed. A longer turn is cut at a word boundary before this many characters, trailing
 * words holding a digit are dropped (a card or phone number split by blanks is never shown in
 * part, where the PII masker could no longer recognise it) and `…` is appended.
 */
export const PREVIEW_CHARS = 120;

/**
 * The text-search document of a request: the JSON string values (message contents, tool
 * arguments, documents; not keys, numbers or booleans) of each body, joined with spaces in
 * jsonb order (`sightline_search_text`, migrations/0005_bounded_search_document.sql), the
 * first `SEARCH_INDEXED_CHARS` characters of each, as `simple`-config lexemes (no stemming, no
 * stop words: prompts are in any language). Stored as the generated column `search_tsv` with a
 * GIN index, which serves `q` (`websearch_to_tsquery('simple', q)`).
 * Chosen over pg_trgm: an index on words of the string values is a fraction of the size of a
 * trigram index on the whole JSON text, and does not match JSON keys such as "role". Stored
 * rather than an expression index because ANALYZE keeps word frequencies of a tsvector column
 * (not of an expression): without them the planner guessed 0.5% of rows for every word and, for
 * a rare word, walked the whole list index recomputing the document per row (tens of seconds
 * at 1M rows, bench/results/dashboard-scale.md).
 */
export const requestSearchDocument = (requestBody: SQL, responseBody: SQL) =>
  sql`(to_tsvector(${sql.raw(`'${SEARCH_CONFIG}'::regconfig`)}, coalesce(public.sightline_search_text(${requestBody}, ${sql.raw(String(SEARCH_INDEXED_CHARS))}), '')) || to_tsvector(${sql.raw(`'${SEARCH_CONFIG}'::regconfig`)}, coalesce(public.sightline_search_text(${responseBody}, ${sql.raw(String(SEARCH_INDEXED_CHARS))}), '')))`;

/** The preview of a request body (`PREVIEW_CHARS`, `sightline_preview`, migrations/0013_request_preview_function.sql). */
export const requestPreview = (requestBody: SQL) => sql`public.sightline_preview(${requestBody}, ${sql.raw(String(PREVIEW_CHARS))})`;

/** A PostgreSQL `tsvector` column. */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * One logged LLM call (docs/interface.md section 2.3, `llm_requests`).
 *
 * Partitioned by month of `created_at` (PostgreSQL declarative partitioning,
 * migrations/0019_monthly_partitions.sql; docs/storage.md): drizzle-kit does not model
 * partitioning, so this declares the parent table as a plain one; the primary key is
 * `(id, created_at)` because a partitioned table's unique keys must hold its partition key.
 * `id` alone is still unique in practice (UUIDv7 or the OTLP span's UUIDv8).
 */
export const llmRequests = pgTable(
  "llm_requests",
  {
    ...projectRecord(),
    id: uuid("id").notNull(),
    model: text("model").notNull(),
    provider: text("provider").notNull(),
    prompt_tokens: integer("prompt_tokens").notNull().default(0),
    completion_tokens: integer("completion_tokens").notNull().default(0),
    /** Cost in US dollars, exact to 1e-10 USD; null while unknown (never reported and not priced). */
    cost_usd: numeric("cost_usd", { precision: 20, scale: 10, mode: "number" }),
    /** Where `cost_usd` came from (`COST_SOURCES`); null when the cost is unknown. */
    cost_source: text("cost_source", { enum: COST_SOURCES }),
    /** The price table that priced the call (`cost_source` `genai-prices`), e.g. `genai-prices@0.1.8`; null otherwise. */
    price_version: text("price_version"),
    /** Prompt tokens read from the provider's prompt cache (part of `prompt_tokens`); null when not reported. */
    cache_read_tokens: integer("cache_read_tokens"),
    /** Prompt tokens written to the provider's prompt cache (part of `prompt_tokens`, Anthropic); null when not reported. */
    cache_write_tokens: integer("cache_write_tokens"),
    /** Wall-clock latency of the call in milliseconds. */
    latency_ms: integer("latency_ms").notNull().default(0),
    /**
     * The request body when it is stored inline (its JSON text at most `INLINE_BODY_BYTES`,
     * src/bodies/codec.ts); null when it lives in R2 (`body_key`, `request_body_offset`,
     * `request_body_length`). Read through src/bodies/ only.
     */
    request_body: jsonb("request_body"),
    /** The response body when stored inline (null also when the call has none); null with `response_body_length` set when in R2. */
    response_body: jsonb("response_body"),
    /** The R2 object (`BODIES`, bucket `sightline-bodies`) holding this call's bodies that are not inline; null when both are inline. */
    body_key: text("body_key"),
    /** Byte offset in `body_key` of the gzip member holding the request body's JSON text; null when inline. */
    request_body_offset: integer("request_body_offset"),
    /** Bytes of that gzip member (compressed); null when inline. */
    request_body_length: integer("request_body_length"),
    /** Byte offset in `body_key` of the response body's gzip member; null when inline. */
    response_body_offset: integer("response_body_offset"),
    /** Bytes of that gzip member (compressed); null when inline. */
    response_body_length: integer("response_body_length"),
    /**
     * The masker's version (`MASKER_VERSION`, src/pii/mask.ts) under which masking this call's
     * `metadata` and bodies changed nothing, found at ingest (`recordPiiFreeVersion`); null when
     * masking found personal data, or for calls stored before it existed. The export masks a
     * call's values unless this is the running version (src/export/stream.ts).
     */
    pii_free_version: smallint("pii_free_version"),
    /** Capture-side extras: status, error, stream, ttft_ms, token_count_source, sdk. */
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    created_at: createdAt(),
    scoring_state: text("scoring_state", { enum: SCORING_STATES }).notNull().default("pending"),
    /** When the request was last handed to the scoring queue (null: never). */
    enqueued_at: timestamptz("enqueued_at"),
    /**
     * Full-text document of both bodies (`requestSearchDocument`), computed at ingest from the
     * whole bodies (they may be in R2 afterwards); filled from the inline bodies by the trigger
     * `llm_requests_derived` when an insert gives none (migrations/0019_bodies_in_r2.sql). Never
     * selected by the API.
     */
    search_tsv: tsvector("search_tsv").notNull(),
    /**
     * The start of the last user turn of `request_body` (`PREVIEW_CHARS`), from the body's
     * `messages` (OpenAI, Anthropic, Mistral, Cohere v2), `contents` (Gemini), `input` (OpenAI
     * Responses), `message` (Cohere v1) or `prompt` (completions); null when it has none.
     * Computed by `sightline_preview` (migrations/0013_request_preview_function.sql) at ingest
     * (`requestPreview`, or the trigger `llm_requests_derived` from an inline body), so the list
     * reads a short column instead of the bodies. Stored text: masked like the bodies (src/pii/views.ts).
     */
    preview: text("preview"),
    /**
     * The call failed: `metadata.status` is `"error"` (the capture convention of the ingest
     * contract: SDKs and the proxy write `status: "success" | "error"`). Stored so the status
     * filter, the error rate and their indexes need no JSON access. Absent status counts as ok.
     */
    is_error: boolean("is_error").notNull().generatedAlwaysAs(sql`coalesce(metadata ->> 'status' = 'error', false)`),
  },
  (t) => [
    primaryKey({ name: "llm_requests_pkey", columns: [t.id, t.created_at] }),
    // List order; the trailing columns make the overview's per-bucket aggregates (count, errors,
    // latency, cost) index-only scans of this same index (a separate covering index in
    // (project_id, created_at) order competed with it for the list and lost the exact order).
    index("llm_requests_project_created_idx").on(t.project_id, t.created_at.desc(), t.id.desc(), t.latency_ms, t.cost_usd, t.is_error),
    index("llm_requests_project_model_created_idx").on(t.project_id, t.model, t.created_at.desc(), t.id.desc()),
    index("llm_requests_project_provider_created_idx").on(t.project_id, t.provider, t.created_at.desc(), t.id.desc()),
    // Failed calls are few: a partial index serves `status=error` lists without reading ok rows.
    index("llm_requests_project_errors_created_idx").on(t.project_id, t.created_at.desc(), t.id.desc()).where(sql`${t.is_error}`),
    // Full-text search over the string values of both bodies (see `requestSearchDocument`), per
    // project: btree_gin lets the GIN index lead with project_id (migration 0021).
    index("llm_requests_search_idx").using("gin", t.project_id, t.search_tsv),
    // Which rows still point at an R2 object (src/upkeep/bodies.ts deletes an object none points at).
    index("llm_requests_body_key_idx").on(t.body_key).where(sql`${t.body_key} IS NOT NULL`),
    index("llm_requests_unscored_idx").on(t.created_at).where(sql`${t.scoring_state} <> 'scored'`),
    // Conversations (docs/sessions.md): the calls of one session in order, and the session list.
    // Partial: only calls that carry `metadata.session_id` are indexed.
    index("llm_requests_project_session_created_idx")
      .on(t.project_id, sql`(${t.metadata} ->> 'session_id')`, t.created_at)
      .where(sql`${t.metadata} ? 'session_id'`),
  ],
);
