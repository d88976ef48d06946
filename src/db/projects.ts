/**
 * Project records: creation (with the project's free subscription, atomically) and the list of
 * the administration routes.
 */
import { desc } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { calendarPeriod } from "../billing/periods";
import type { Db } from "./client";
import { projects, subscriptions } from "./schema";

/** Creates a project and its `free` subscription for the current calendar month, atomically. */
export async function createProject(db: Db, name: string, now = new Date()) {
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
    return project!;
  });
}

/** Every project, newest first. */
export function listProjects(db: Db) {
  return db.select().from(projects).orderBy(desc(projects.created_at));
}
