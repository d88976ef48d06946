/** Queries of project policies (docs/policy.md; table `project_policies`). */
import { eq, sql } from "drizzle-orm";
import { DEFAULT_POLICY, policyFromStored, type ProjectPolicy, type VersionedPolicy } from "../policy/schema";
import type { Db } from "./driver/client";
import { projectPolicies } from "./schema";

/** A project's policy in force, its version (0: default) and when it last changed (null: never). */
export type StoredPolicy = VersionedPolicy & { updated_at: Date | null };

/** The policy of `projectId`; the default policy (version 0) when it never set one. */
export async function getPolicy(db: Db, projectId: string): Promise<StoredPolicy> {
  const [row] = await db.select().from(projectPolicies).where(eq(projectPolicies.project_id, projectId));
  if (!row) return { policy: DEFAULT_POLICY, version: 0, updated_at: null };
  return { policy: policyFromStored(row.policy), version: row.version, updated_at: row.updated_at };
}

/** Replaces the policy of `projectId` (one statement; the version grows by one) and returns it. */
export async function putPolicy(db: Db, projectId: string, policy: ProjectPolicy): Promise<StoredPolicy> {
  const [row] = await db
    .insert(projectPolicies)
    .values({ project_id: projectId, policy, version: 1 })
    .onConflictDoUpdate({ target: projectPolicies.project_id, set: { policy, version: sql`${projectPolicies.version} + 1`, updated_at: sql`now()` } })
    .returning();
  return { policy: policyFromStored(row!.policy), version: row!.version, updated_at: row!.updated_at };
}
