/**
 * The shape of one entry of the reveal audit (src/pii/reveals.ts), without imports, so the
 * dashboard's contract (and so the browser bundle) can name it without pulling in database code.
 */

/** One recorded reveal, as the dashboard shows it. */
export interface PiiReveal {
  id: string;
  request_id: string;
  /** `user`: a dashboard user revealed; `key`: an API key read raw. */
  actor: "user" | "key";
  /**
   * Who revealed, readably: the user's email (as before keys could reveal), or for a key
   * `key slk_1a2b…9f0e (name)` (`key <id> (deleted)` once the key is gone).
   */
  revealed_by: string;
  /** The key's id when `actor` is `key`, else null. */
  api_key_id: string | null;
  /** ISO-8601 instant. */
  revealed_at: string;
  /** What was shown unmasked: `request_body`, `response_body`, `metadata`, ... */
  fields: string[];
}
