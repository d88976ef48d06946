/**
 * `pii_reveals`, the audit of personal-data reveals. Owner: the API (src/pii/reveals.ts), which
 * records a dashboard user's reveals when the dashboard server asks (/internal, workers/api/src/routes/pii-reveals.ts)
 * and an admin key's raw reads itself.
 */
import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptzNow } from "./columns";
import { projectRecord } from "./projects";

/**
 * Audit of personal-data reveals (issue 26.5, 32): one row each time someone saw a request
 * unmasked: who (exactly one actor, CHECK: a dashboard user, by id and the email at that time,
 * kept when the account goes; or an API key with the `admin` scope, by id, kept when the key is
 * deleted), when, which request, which fields were shown. Read by owners and admins
 * (src/pii/reveals.ts). `request_id` and `api_key_id` have no foreign key: the record outlives
 * the request (retention deletes requests) and the key.
 */
export const piiReveals = pgTable(
  "pii_reveals",
  {
    ...projectRecord(),
    request_id: uuid("request_id").notNull(),
    /** The dashboard user who revealed, or null when a key did. */
    user_id: text("user_id"),
    /** That user's email at the time, or null when a key did. */
    user_email: text("user_email"),
    /** The API key that read raw (`reveal=true` with the `admin` scope), or null when a user did. */
    api_key_id: uuid("api_key_id"),
    /** The fields shown unmasked, e.g. `{request_body,response_body,metadata}`. */
    fields: text("fields").array().notNull(),
    revealed_at: timestamptzNow("revealed_at"),
  },
  (t) => [
    index("pii_reveals_project_revealed_idx").on(t.project_id, t.revealed_at),
    index("pii_reveals_project_request_idx").on(t.project_id, t.request_id, t.revealed_at),
    check(
      "pii_reveals_one_actor",
      sql`(${t.user_id} IS NOT NULL AND ${t.user_email} IS NOT NULL AND ${t.api_key_id} IS NULL) OR (${t.user_id} IS NULL AND ${t.user_email} IS NULL AND ${t.api_key_id} IS NOT NULL)`,
    ),
  ],
);
