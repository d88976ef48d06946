/**
 * PostgreSQL schema (drizzle-orm) of the API's tables, one module per domain. Migrations in
 * `migrations/` are generated from src/db/schema/ by `npm run db:generate` (drizzle-kit) and
 * never edited by hand once applied. The dashboard's account tables are in ./auth.ts and the
 * alert webhooks' in ./alerts.ts.
 *
 * Field names of docs/interface.md section 2 keep their names and meanings there.
 * Every time-range query is served by an index led by `(project_id, created_at)`; list
 * order is `created_at DESC, id DESC` (docs/decisions.md D6).
 */
// The column enums are declared once, in src/enums.ts: import them from there.
export * from "./billing";
export * from "./bodies";
export * from "./judge";
export * from "./policies";
export * from "./projects";
export * from "./requests";
export * from "./rescoring";
export * from "./rollups";
export * from "./scores";
export * from "./sessions";
