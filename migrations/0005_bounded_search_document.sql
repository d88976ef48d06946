-- The full-text document covers the first 50,000 characters of each body's string values
-- (SEARCH_INDEXED_CHARS, src/db/schema.ts), so that no call is refused for a tsvector over
-- PostgreSQL's 1 MiB limit (SQLSTATE 54000). The helper is IMMUTABLE (a generated column may
-- only call immutable functions), schema-qualified, and uses only built-ins.
CREATE OR REPLACE FUNCTION public.sightline_search_text(doc jsonb, max_chars integer) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN left((SELECT string_agg(v #>> '{}', ' ') FROM jsonb_path_query(doc, 'strict $.**') AS v WHERE jsonb_typeof(v) = 'string'), max_chars);--> statement-breakpoint
ALTER TABLE "llm_requests" DROP COLUMN "search_tsv";--> statement-breakpoint
ALTER TABLE "llm_requests" ADD COLUMN "search_tsv" "tsvector" GENERATED ALWAYS AS ((to_tsvector('simple'::regconfig, coalesce(public.sightline_search_text(request_body, 50000), '')) || to_tsvector('simple'::regconfig, coalesce(public.sightline_search_text(response_body, 50000), '')))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "llm_requests_search_idx" ON "llm_requests" USING gin ("search_tsv");
