/**
 * The scoring queue's message (DESIGN.md, "Queue message"): ids only, because queue messages
 * are capped at 128 KB; the consumer loads the bodies from Postgres.
 */
export interface ScoringJob {
  request_id: string;
  project_id: string;
}
