/**
 * API key records: lookup for authentication and the key lifecycle (create, revoke, rotate,
 * delete) used by the /internal routes and the operator CLI. Projects are in ./projects.ts.
 */
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { generateKey, hashKey, keyHint, ROTATION_GRACE_SECONDS } from "../auth/keys";
import type { Db } from "./driver/client";
import { deleteProjectRow, projectRow } from "./project-rows";
import { apiKeys } from "./schema";
import { FOREIGN_KEY_VIOLATION, sqlStateOf } from "./driver/unavailable";

/** Why a presented key is not accepted, or the project it opens. */
export type KeyLookup = { ok: true; projectId: string } | { ok: false; reason: "unknown" | "revoked" | "expired" };

/** Resolves a key by its SHA-256 hex digest; one indexed query. */
export async function lookupKey(db: Db, keyHash: string): Promise<KeyLookup> {
  const [row] = await db
    .select({
      projectId: apiKeys.project_id,
      revoked: sql<boolean>`${apiKeys.revoked_at} IS NOT NULL`,
      expired: sql<boolean>`${apiKeys.expires_at} IS NOT NULL AND ${apiKeys.expires_at} <= now()`,
    })
    .from(apiKeys)
    .where(eq(apiKeys.key_hash, keyHash));
  if (!row) return { ok: false, reason: "unknown" };
  if (row.revoked) return { ok: false, reason: "revoked" };
  if (row.expired) return { ok: false, reason: "expired" };
  return { ok: true, projectId: row.projectId };
}

/** Public view of a key: never the value or its hash. */
export const keyColumns = {
  id: apiKeys.id,
  project_id: apiKeys.project_id,
  name: apiKeys.name,
  key_hint: apiKeys.key_hint,
  created_at: apiKeys.created_at,
  expires_at: apiKeys.expires_at,
  revoked_at: apiKeys.revoked_at,
  created_by: apiKeys.created_by,
  last_used_at: apiKeys.last_used_at,
};

/** A key as returned by the administration routes. */
export type KeyRecord = {
  id: string;
  project_id: string;
  name: string;
  key_hint: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  /** Who created it in the dashboard (email), or null. */
  created_by: string | null;
  /** Last accepted use, to the minute (src/db/key-usage.ts), or null. */
  last_used_at: Date | null;
};

/**
 * Issues a new key for a project; returns the record and the full value (shown once), or null
 * when no project has that id. `createdBy`: who asked for it (the dashboard sends the user's email).
 */
export async function createKey(db: Db, projectId: string, name: string, createdBy: string | null = null): Promise<(KeyRecord & { key: string }) | null> {
  const key = generateKey();
  try {
    const [row] = await db
      .insert(apiKeys)
      .values({ id: uuidv7(), project_id: projectId, name, key_hash: await hashKey(key), key_hint: keyHint(key), created_by: createdBy })
      .returning(keyColumns);
    return { ...row!, key };
  } catch (err) {
    if (sqlStateOf(err) === FOREIGN_KEY_VIOLATION) return null;
    throw err;
  }
}

/** Keys of a project, newest first (hints only). */
export function listKeys(db: Db, projectId: string): Promise<KeyRecord[]> {
  return db.select(keyColumns).from(apiKeys).where(eq(apiKeys.project_id, projectId)).orderBy(desc(apiKeys.created_at));
}

/** Revokes a key at once. Returns null when the project has no such key. */
export async function revokeKey(db: Db, projectId: string, keyId: string): Promise<KeyRecord | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ revoked_at: sql`coalesce(${apiKeys.revoked_at}, now())` })
    .where(projectRow(apiKeys, projectId, keyId))
    .returning(keyColumns);
  return row ?? null;
}

/**
 * Rotates a key: issues a new key with the same name and makes the old one expire
 * ROTATION_GRACE_SECONDS (60 s) from now, so deployments can switch without downtime.
 * The new key is `createdBy` (default: the old key's creator).
 * Returns null when the project has no such active key.
 */
export async function rotateKey(
  db: Db,
  projectId: string,
  keyId: string,
  createdBy: string | null = null,
): Promise<{ old: KeyRecord; replacement: KeyRecord & { key: string } } | null> {
  return db.transaction(async (tx) => {
    const [old] = await tx
      .select(keyColumns)
      .from(apiKeys)
      .where(and(projectRow(apiKeys, projectId, keyId), isNull(apiKeys.revoked_at)))
      .for("update");
    if (!old || (old.expires_at && old.expires_at <= new Date())) return null;
    // The project exists: it owns the key being rotated, locked above.
    const replacement = (await createKey(tx as unknown as Db, projectId, old.name, createdBy ?? old.created_by))!;
    const [updated] = await tx
      .update(apiKeys)
      .set({
        expires_at: sql`least(coalesce(${apiKeys.expires_at}, 'infinity'), now() + make_interval(secs => ${ROTATION_GRACE_SECONDS}))`,
        replaced_by: replacement.id,
      })
      .where(eq(apiKeys.id, keyId))
      .returning(keyColumns);
    return { old: updated!, replacement };
  });
}

/** Deletes a key for good. Returns false when the project has no such key. */
export async function deleteKey(db: Db, projectId: string, keyId: string): Promise<boolean> {
  return deleteProjectRow(db, apiKeys, projectId, keyId);
}
