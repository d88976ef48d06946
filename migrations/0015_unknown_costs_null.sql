-- An unknown cost is NULL, never 0 (issue 33.5). Calls logged without a cost were stored as 0:
-- by the client libraries with metadata.cost_source 'unknown', by the proxy for a model the
-- price table did not know (also 'unknown'), and by a direct POST /internal/log without
-- `cost_usd` (no cost_source at all; the API defaulted it to 0). A reported cost of exactly 0
-- cannot be told from the latter; such rows are rare and read "unknown" from now on.
UPDATE llm_requests SET cost_usd = NULL
WHERE cost_usd = 0 AND (metadata ->> 'cost_source' IS NULL OR metadata ->> 'cost_source' = 'unknown');--> statement-breakpoint
-- Where the remaining costs came from: priced by the scorer or the proxy from genai-prices (the
-- table's version was not recorded then), else reported by the producer.
UPDATE llm_requests SET cost_source = CASE WHEN metadata ->> 'cost_source' = 'genai-prices' THEN 'genai-prices' ELSE 'reported' END
WHERE cost_usd IS NOT NULL;--> statement-breakpoint
-- Cached prompt tokens the proxy recorded in metadata.
UPDATE llm_requests SET cache_read_tokens = (metadata ->> 'cached_tokens')::int
WHERE jsonb_typeof(metadata -> 'cached_tokens') = 'number' AND (metadata ->> 'cached_tokens') ~ '^[0-9]{1,9}$';--> statement-breakpoint
-- The rollups count unpriced calls (request_rollups.unpriced, src/db/rollups.ts). The counts of the
-- stored rows, for every hour that has some (hours whose rows retention deleted keep their totals).
CREATE FUNCTION sightline_count_unpriced() RETURNS void LANGUAGE sql AS $$
  UPDATE request_rollups r SET unpriced = coalesce(u.n, 0)
  FROM request_rollups r0
  LEFT JOIN (SELECT project_id, date_trunc('hour', created_at, 'UTC') AS hour, count(*) AS n FROM llm_requests WHERE cost_usd IS NULL GROUP BY 1, 2) u
    ON u.project_id = r0.project_id AND u.hour = r0.hour
  WHERE r.project_id = r0.project_id AND r.hour = r0.hour AND r.unpriced IS DISTINCT FROM coalesce(u.n, 0);
$$;--> statement-breakpoint
-- The rebuild of migration 0007 (kept as it is, renamed), then the unpriced counts.
ALTER FUNCTION sightline_rebuild_rollups() RENAME TO sightline_rebuild_rollups_0007;--> statement-breakpoint
CREATE FUNCTION sightline_rebuild_rollups() RETURNS void LANGUAGE sql AS $$
  SELECT sightline_rebuild_rollups_0007();
  SELECT sightline_count_unpriced();
$$;--> statement-breakpoint
SELECT sightline_count_unpriced();
