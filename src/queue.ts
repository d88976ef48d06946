/**
 * The scoring queue's message (docs/decisions.md D4): ids only, because queue messages
 * are capped at 128 KB; the consumer loads the bodies from Postgres.
 */
export interface ScoringJob {
  request_id: string;
  project_id: string;
}
