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
-- The rollups count unpriced calls (request_rollups.unpriced) and sum known costs only.
CREATE OR REPLACE FUNCTION sightline_rebuild_rollups() RETURNS void LANGUAGE sql AS $$
  LOCK TABLE request_rollups, score_rollups IN EXCLUSIVE MODE;
  DELETE FROM request_rollups;
  INSERT INTO request_rollups (project_id, hour, requests, errors, cost_usd, unpriced, prompt_tokens, completion_tokens, latency_ms_sum, latency_hist)
  SELECT project_id, date_trunc('hour', created_at, 'UTC'), count(*), count(*) FILTER (WHERE is_error), coalesce(sum(cost_usd), 0),
    count(*) FILTER (WHERE cost_usd IS NULL), coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0), coalesce(sum(latency_ms), 0),
    sightline_latency_histogram(array_agg(latency_ms))
  FROM llm_requests GROUP BY 1, 2;
  DELETE FROM score_rollups;
  INSERT INTO score_rollups (project_id, hour, scorer_name, scores, unsafe, unscored, value_1, value_2, value_3, value_4, value_5)
  SELECT project_id, date_trunc('hour', created_at, 'UTC'), scorer_name, count(*), count(*) FILTER (WHERE score_label = 'unsafe'),
    count(*) FILTER (WHERE score_label = 'unscored'), count(*) FILTER (WHERE score_value = 1), count(*) FILTER (WHERE score_value = 2),
    count(*) FILTER (WHERE score_value = 3), count(*) FILTER (WHERE score_value = 4), count(*) FILTER (WHERE score_value = 5)
  FROM safety_scores WHERE superseded_at IS NULL GROUP BY 1, 2, 3;
$$;--> statement-breakpoint
-- Rollup counts of unpriced calls for the hours already rolled up (hours that lost rows to
-- retention keep their totals; only rows still stored are counted).
UPDATE request_rollups r SET unpriced = u.n
FROM (SELECT project_id, date_trunc('hour', created_at, 'UTC') AS hour, count(*) AS n FROM llm_requests WHERE cost_usd IS NULL GROUP BY 1, 2) u
WHERE r.project_id = u.project_id AND r.hour = u.hour;
