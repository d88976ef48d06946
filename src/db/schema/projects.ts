/**
 * Projects and their API keys, and the column helpers every per-project table uses. Part of the PostgreSQL schema (drizzle-orm, src/db/schema/index.ts);
 * migrations/ is generated from it by `npm run db:generate`.
 */
import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { API_KEY_SCOPES, type ApiKeyScope } from "../../enums";
import { ownedBy, timestamptz, createdAt } from "./columns";

/** A project: the unit of scoping for keys, requests, scores and the subscription. */
export const projects = pgTable("projects", {
  id: uuid("id").primaryKey(),
  name: text("name").notNull(),
  created_at: createdAt(),
});

/** `project_id uuid NOT NULL`, a foreign key to `projects.id` deleted with the project. */
export const projectId = () => ownedBy(uuid("project_id").notNull(), () => projects.id);

/** `project_id uuid PRIMARY KEY` to `projects.id`, deleted with the project: a table of one row per project. */
export const projectKey = () => ownedBy(uuid("project_id").primaryKey(), () => projects.id);

/**
 * The first columns of a project's records: `id uuid PRIMARY KEY` (a UUIDv7, chosen by the
 * writer: time-ordered, so inserts stay local in the primary key index) and `projectId()`.
 */
export const projectRecord = () => ({ id: uuid("id").primaryKey(), project_id: projectId() });

/**
 * API keys: `slk_` + 48 lowercase hex characters; only the SHA-256 hex digest is stored,
 * with a display hint (`slk_1a2b…9f0e`). `expires_at` is set by rotation (60 s grace);
 * `revoked_at` refuses the key at once. Deleting the row deletes the key. `scopes`: what the
 * key may do (`API_KEY_SCOPES`, src/enums.ts), a non-empty set of known scopes (CHECK).
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    ...projectRecord(),
    name: text("name").notNull().default("default"),
    key_hash: text("key_hash").notNull().unique("api_keys_key_hash_key"),
    key_hint: text("key_hint").notNull(),
    created_at: createdAt(),
    expires_at: timestamptz("expires_at"),
    revoked_at: timestamptz("revoked_at"),
    /** The key that replaced this one by rotation, if any. */
    replaced_by: uuid("replaced_by"),
    /** Who created the key in the dashboard (email), or null (CLI, API, demo seed). */
    created_by: text("created_by"),
    /** Last accepted use, recorded at most once a minute per key (src/db/key-usage.ts). */
    last_used_at: timestamptz("last_used_at"),
    /**
     * What the key may do: a non-empty subset of `API_KEY_SCOPES` (issue 32). The default, all
     * three, is what a key made without naming scopes gets (operator CLI, /internal without
     * `scopes`); the dashboard always names them (capped by the creator's role).
     */
    scopes: text("scopes")
      .array()
      .$type<ApiKeyScope[]>()
      .notNull()
      .default(sql.raw(`'{${API_KEY_SCOPES.join(",")}}'::text[]`)),
  },
  (t) => [
    index("api_keys_project_idx").on(t.project_id, t.created_at),
    check(
      "api_keys_scopes_known",
      sql`cardinality(${t.scopes}) > 0 AND ${t.scopes} <@ ARRAY[${sql.raw(API_KEY_SCOPES.map((s) => `'${s}'`).join(", "))}]::text[]`,
    ),
  ],
);
