/**
 * Project policies (docs/policy.md). Part of the PostgreSQL schema (drizzle-orm, src/db/schema/index.ts);
 * migrations/ is generated from it by `npm run db:generate`.
 */
import { integer, jsonb, pgTable } from "drizzle-orm/pg-core";
import { timestamptzNow } from "./columns";
import { projectKey } from "./projects";

/**
 * A project's policy (docs/policy.md): the document of `PUT /api/policy` (src/policy/schema.ts),
 * stored whole. `version` starts at 1 and grows by one per change; scores record the version
 * they were made under (`safety_scores.policy_version`). No row: the default policy (version 0).
 */
export const projectPolicies = pgTable("project_policies", {
  project_id: projectKey(),
  policy: jsonb("policy").notNull(),
  version: integer("version").notNull().default(1),
  updated_at: timestamptzNow("updated_at"),
});
