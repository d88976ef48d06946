/**
 * A project's own record by id, in any table of project records (`projectRecord()` of
 * ./schema/projects.ts: `id` and `project_id`): the condition every project-scoped read,
 * update and delete of one row uses, so a record of another project is never touched.
 */
import { and, eq, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./driver/client";

/** A table with the columns of `projectRecord()`. */
type ProjectRecordTable = PgTable & { id: PgColumn; project_id: PgColumn };

/** `project_id = projectId AND id = id` on `table`: record `id` of project `projectId`. */
export function projectRow(table: ProjectRecordTable, projectId: string, id: string): SQL {
  return and(eq(table.project_id, projectId), eq(table.id, id)) as SQL;
}

/** Deletes record `id` of project `projectId` from `table`; false when the project has no such record. */
export async function deleteProjectRow(db: Db, table: ProjectRecordTable, projectId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(table)
    .where(projectRow(table, projectId, id))
    .returning({ id: table.id });
  return rows.length > 0;
}
