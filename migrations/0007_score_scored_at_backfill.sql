-- Scores written before scored_at existed were made when they were created.
UPDATE safety_scores SET scored_at = created_at WHERE scored_at > created_at;--> statement-breakpoint
-- The score rollups count current scores only (superseded ones are history, docs/rescoring.md).
CREATE OR REPLACE FUNCTION sightline_rebuild_rollups() RETURNS void LANGUAGE sql AS $$
  LOCK TABLE request_rollups, score_rollups IN EXCLUSIVE MODE;
  DELETE FROM request_rollups;
  INSERT INTO request_rollups (project_id, hour, requests, errors, cost_usd, prompt_tokens, completion_tokens, latency_ms_sum, latency_hist)
  SELECT project_id, date_trunc('hour', created_at, 'UTC'), count(*), count(*) FILTER (WHERE is_error), coalesce(sum(cost_usd), 0),
    coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0), coalesce(sum(latency_ms), 0), sightline_latency_histogram(array_agg(latency_ms))
  FROM llm_requests GROUP BY 1, 2;
  DELETE FROM score_rollups;
  INSERT INTO score_rollups (project_id, hour, scorer_name, scores, unsafe, unscored, value_1, value_2, value_3, value_4, value_5)
  SELECT project_id, date_trunc('hour', created_at, 'UTC'), scorer_name, count(*), count(*) FILTER (WHERE score_label = 'unsafe'),
    count(*) FILTER (WHERE score_label = 'unscored'), count(*) FILTER (WHERE score_value = 1), count(*) FILTER (WHERE score_value = 2),
    count(*) FILTER (WHERE score_value = 3), count(*) FILTER (WHERE score_value = 4), count(*) FILTER (WHERE score_value = 5)
  FROM safety_scores WHERE superseded_at IS NULL GROUP BY 1, 2, 3;
$$;
