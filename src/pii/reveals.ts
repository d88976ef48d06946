/**
 * The audit of personal-data reveals (table `pii_reveals`, src/db/schema/pii.ts; issues 26.5
 * and 32): one row written before unmasked data leaves Sightline, naming its actor: a dashboard
 * user (an owner or admin who asked `reveal=true`, dashboard/server/routes/requests.ts) or an
 * API key with the `admin` scope (`reveal=true` on GET /api/requests/{id}, workers/api/src/routes/requests.ts).
 * Read by owners and admins in the dashboard. The one module that writes and reads the table.
 */
import { and, desc, eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Db } from "../db/driver/client";
import { apiKeys } from "../db/schema";
import { piiReveals } from "../db/schema/pii";
import type { PiiReveal } from "./reveal-types";

export type { PiiReveal };

/** Most audit rows one read returns (newest first). */
export const MAX_REVEALS = 200;

/** Who saw data unmasked: a dashboard user (id, email at the time) or an API key (id). */
export type RevealActor = { user: { id: string; email: string } } | { apiKeyId: string };

/**
 * Records that `actor` saw `fields` of the requests `requestIds` of project `projectId`
 * unmasked: one row per request, in one statement (none for an empty list).
 */
export async function recordReveals(db: Db, projectId: string, requestIds: readonly string[], actor: RevealActor, fields: readonly string[]): Promise<void> {
  if (requestIds.length === 0) return;
  const who = "user" in actor ? { user_id: actor.user.id, user_email: actor.user.email } : { api_key_id: actor.apiKeyId };
  await db
    .insert(piiReveals)
    .values(requestIds.map((requestId) => ({ id: uuidv7(), project_id: projectId, request_id: requestId, fields: [...fields], ...who })));
}

/** How a key actor reads in the audit: `key slk_1a2b…9f0e (name)`, or `key <id> (deleted)`. */
export function keyActorLabel(keyId: string, key: { hint: string | null; name: string | null }): string {
  return key.hint ? `key ${key.hint} (${key.name})` : `key ${keyId} (deleted)`;
}

/** The project's reveals, newest first (of one request when `requestId` is given), at most `MAX_REVEALS`. */
export async function listReveals(db: Db, projectId: string, requestId?: string): Promise<PiiReveal[]> {
  const where = requestId ? and(eq(piiReveals.project_id, projectId), eq(piiReveals.request_id, requestId)) : eq(piiReveals.project_id, projectId);
  const rows = await db
    .select({ reveal: piiReveals, hint: apiKeys.key_hint, name: apiKeys.name })
    .from(piiReveals)
    .leftJoin(apiKeys, eq(apiKeys.id, piiReveals.api_key_id))
    .where(where)
    .orderBy(desc(piiReveals.revealed_at), desc(piiReveals.id))
    .limit(MAX_REVEALS);
  return rows.map(({ reveal: r, hint, name }) => ({
    id: r.id,
    request_id: r.request_id,
    actor: r.api_key_id ? "key" : "user",
    revealed_by: r.api_key_id ? keyActorLabel(r.api_key_id, { hint, name }) : (r.user_email ?? ""),
    api_key_id: r.api_key_id,
    revealed_at: r.revealed_at.toISOString(),
    fields: r.fields,
  }));
}
