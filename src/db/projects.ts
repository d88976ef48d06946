/**
 * Project records: creation (with the project's free subscription and, for the dashboard, its
 * organisation link, atomically), rename, delete, and the list of the administration routes.
 */
import { and, desc, eq, ne, notExists, notInArray, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { calendarPeriod } from "../billing/periods";
import type { Db } from "./driver/client";
import { organizationProjects } from "./schema/organizations";
import { releaseProjectObjects } from "./body-objects";
import { projects, subscriptions } from "./schema";

/**
 * Creates a project and its `free` subscription for the current calendar month and, when
 * `organizationId` is given, attaches it to that dashboard organisation: all in one transaction,
 * so a project never exists without its subscription or (for the dashboard) its organisation.
 */
export async function createProject(db: Db, name: string, now = new Date(), organizationId?: string) {
  const id = uuidv7();
  const period = calendarPeriod(now);
  return db.transaction(async (tx) => {
    const [project] = await tx.insert(projects).values({ id, name }).returning();
    await tx.insert(subscriptions).values({
      project_id: id,
      tier: "free",
      period_start_at: period.start,
      period_reset_at: period.reset,
    });
    if (organizationId !== undefined) await tx.insert(organizationProjects).values({ project_id: id, organization_id: organizationId });
    return project!;
  });
}

/** Every project, newest first. */
export function listProjects(db: Db) {
  return db.select().from(projects).orderBy(desc(projects.created_at));
}

/** Renames a project; returns it, or null when there is no such project. */
export async function renameProject(db: Db, id: string, name: string) {
  const [row] = await db.update(projects).set({ name }).where(eq(projects.id, id)).returning();
  return row ?? null;
}

/** Statuses of a paid subscription that no longer bills (Stripe's subscription statuses). */
const ENDED_STATUSES = ["canceled", "incomplete_expired"];

/**
 * Deletes a project; its keys, requests, scores, reviews, rollups, subscription and organisation
 * link go with it (foreign keys `ON DELETE CASCADE`, src/db/schema/columns.ts `ownedBy`). A project
 * whose paid subscription still bills is kept (`"subscribed"`): deleting it would leave Stripe
 * charging for a project nobody can open; cancel in the billing portal first. One statement,
 * so a subscription started meanwhile is seen; in the same transaction its body objects are
 * marked unreferenced (src/db/body-objects.ts), so src/upkeep/bodies.ts deletes them from R2.
 */
export async function deleteProject(db: Db, id: string): Promise<"deleted" | "missing" | "subscribed"> {
  const billing = db
    .select({ one: sql`1` })
    .from(subscriptions)
    .where(and(eq(subscriptions.project_id, id), ne(subscriptions.tier, "free"), notInArray(subscriptions.status, ENDED_STATUSES)));
  const deleted = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(projects)
      .where(and(eq(projects.id, id), notExists(billing)))
      .returning({ id: projects.id });
    if (rows.length > 0) await releaseProjectObjects(tx as unknown as Db, id);
    return rows.length > 0;
  });
  if (deleted) return "deleted";
  const [exists] = await db.select({ id: projects.id }).from(projects).where(eq(projects.id, id));
  return exists ? "subscribed" : "missing";
}
