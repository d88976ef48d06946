/**
 * The audit of personal-data reveals (table `pii_reveals`, src/db/schema/auth.ts): written before
 * unmasked data leaves the server, read by owners and admins.
 */
import { and, desc, eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Db } from "../../../src/db/driver/client";
import { piiReveals } from "../../../src/db/schema/auth";
import type { PiiReveal } from "../contract";
import type { SessionUser } from "../env";

/** Most audit rows one read returns (newest first). */
export const MAX_REVEALS = 200;

/** Records that `user` revealed `fields` of request `requestId` of project `projectId`. */
export async function recordReveal(db: Db, projectId: string, requestId: string, user: SessionUser, fields: readonly string[]): Promise<void> {
  await db
    .insert(piiReveals)
    .values({ id: uuidv7(), project_id: projectId, request_id: requestId, user_id: user.id, user_email: user.email, fields: [...fields] });
}

/** The project's reveals, newest first (of one request when `requestId` is given), at most `MAX_REVEALS`. */
export async function listReveals(db: Db, projectId: string, requestId?: string): Promise<PiiReveal[]> {
  const where = requestId ? and(eq(piiReveals.project_id, projectId), eq(piiReveals.request_id, requestId)) : eq(piiReveals.project_id, projectId);
  const rows = await db.select().from(piiReveals).where(where).orderBy(desc(piiReveals.revealed_at), desc(piiReveals.id)).limit(MAX_REVEALS);
  return rows.map((r) => ({ id: r.id, request_id: r.request_id, revealed_by: r.user_email, revealed_at: r.revealed_at.toISOString(), fields: r.fields }));
}
