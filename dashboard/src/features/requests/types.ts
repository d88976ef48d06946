/**
 * Shapes of the request views as the dashboard server answers them (the API's
 * `LlmRequestListItem`, `ScoreChip` and `LlmRequest` schemas, src/routes/schemas.ts).
 */
import type { ReviewVerdict, ScoreLabel, ScorerName } from "../../../../src/enums";

/** One score of a list row. */
export interface Chip {
  scorer_name: ScorerName;
  score_value: number | null;
  score_label: ScoreLabel;
  verdict: ReviewVerdict | null;
}

/** A row of the list (no bodies). */
export interface Row {
  id: string;
  created_at: string;
  model: string;
  provider: string;
  is_error: boolean;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
  latency_ms: number;
  scoring_state: string;
  scores: Chip[];
}

/** A keyset page of rows. */
export interface RowPage {
  items: Row[];
  next_cursor: string | null;
}

/** A score of the detail, with its review. */
export interface Score {
  id: string;
  scorer_name: ScorerName;
  score_value: number | null;
  score_label: ScoreLabel;
  rationale: string;
  review: { verdict: ReviewVerdict; reviewer: string; reviewed_at: string } | null;
}

/** A request with bodies, scores and neighbours in the filtered list. */
export interface Detail extends Omit<Row, "scores"> {
  metadata: Record<string, unknown>;
  request_body: unknown;
  response_body: unknown;
  safety_scores: Score[];
  neighbours: { newer_id: string | null; older_id: string | null };
}
