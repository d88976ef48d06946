/**
 * The R2 objects that hold request and response bodies (src/bodies/, docs/capture.md "Bodies in R2").
 * Part of the PostgreSQL schema (drizzle-orm, src/db/schema/index.ts); migrations/ is generated
 * from it by `npm run db:generate`. Written only by src/db/body-objects.ts.
 */
import { sql } from "drizzle-orm";
import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, timestamptzNow } from "./columns";

/**
 * One object of bucket `sightline-bodies`: the bodies of one project's calls that arrived
 * together (one ingest batch). Registered before the object is written (so an object is never
 * written untracked), pointed to by `llm_requests.body_key`. No foreign key to `projects`: the
 * row must outlive a deleted project until its object is deleted (src/upkeep/bodies.ts).
 */
export const bodyObjects = pgTable(
  "body_objects",
  {
    /** The object key, `<project_id>/<uuidv7>`. */
    key: text("key").primaryKey(),
    project_id: uuid("project_id").notNull(),
    /** When the object was registered (just before it was written). */
    created_at: createdAt(),
    /**
     * The newest `created_at` of the calls stored with bodies in it; null while no stored call
     * points to it (being written, its batch stored nothing, or its project was deleted).
     */
    newest_created_at: timestamptz("newest_created_at"),
  },
  (t) => [
    // Objects no call points to, oldest first (deleted after a grace period).
    index("body_objects_unreferenced_idx").on(t.created_at).where(sql`${t.newest_created_at} IS NULL`),
    // A project's objects by their newest call: those past the project's retention.
    index("body_objects_project_newest_idx").on(t.project_id, t.newest_created_at),
  ],
);

/** Where a bounded background job over a table stopped (e.g. moving inline bodies to R2): one row per job. */
export const upkeepCursors = pgTable("upkeep_cursors", {
  /** The job, e.g. `bodies-to-r2`. */
  name: text("name").primaryKey(),
  /** The last key the job finished, as text (a request id for `bodies-to-r2`). */
  position: text("position").notNull(),
  updated_at: timestamptzNow("updated_at"),
});
