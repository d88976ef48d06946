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
import { API_KEY_SCOPES, type ApiKeyScope } from "../enums";

/** Why a presented key is not accepted, or the project it opens, the key's id and its scopes. */
export type KeyLookup = { ok: true; projectId: string; keyId: string; scopes: ApiKeyScope[] } | { ok: false; reason: "unknown" | "revoked" | "expired" };

/** Resolves a key by its SHA-256 hex digest; one indexed query. */
export async function lookupKey(db: Db, keyHash: string): Promise<KeyLookup> {
  const [row] = await db
    .select({
      projectId: apiKeys.project_id,
      keyId: apiKeys.id,
      scopes: apiKeys.scopes,
      revoked: sql<boolean>`${apiKeys.revoked_at} IS NOT NULL`,
      expired: sql<boolean>`${apiKeys.expires_at} IS NOT NULL AND ${apiKeys.expires_at} <= now()`,
    })
    .from(apiKeys)
    .where(eq(apiKeys.key_hash, keyHash));
  if (!row) return { ok: false, reason: "unknown" };
  if (row.revoked) return { ok: false, reason: "revoked" };
  if (row.expired) return { ok: false, reason: "expired" };
  return { ok: true, projectId: row.projectId, keyId: row.keyId, scopes: row.scopes };
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
  scopes: apiKeys.scopes,
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
  /** What the key may do (`API_KEY_SCOPES`), in that order. */
  scopes: ApiKeyScope[];
};

/** `scopes` without repeats, in the order of `API_KEY_SCOPES` (how they are stored and shown). */
export function normalScopes(scopes: readonly ApiKeyScope[]): ApiKeyScope[] {
  return API_KEY_SCOPES.filter((s) => scopes.includes(s));
}

/** Optional details of a new key (`createKey`). */
export interface NewKeyOptions {
  /** Who asked for it (the dashboard sends the user's email); default null. */
  createdBy?: string | null;
  /** What the key may do (non-empty); default all of `API_KEY_SCOPES`, what the operator CLI and /internal without `scopes` give. */
  scopes?: readonly ApiKeyScope[];
}

/**
 * Issues a new key for a project; returns the record and the full value (shown once), or null
 * when no project has that id.
 */
export async function createKey(db: Db, projectId: string, name: string, options: NewKeyOptions = {}): Promise<(KeyRecord & { key: string }) | null> {
  const { createdBy = null, scopes = API_KEY_SCOPES } = options;
  const key = generateKey();
  try {
    const [row] = await db
      .insert(apiKeys)
      .values({
        id: uuidv7(),
        project_id: projectId,
        name,
        key_hash: await hashKey(key),
        key_hint: keyHint(key),
        created_by: createdBy,
        scopes: normalScopes(scopes),
      })
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

/** Outcome of `rotateKey`: the new key and the expiring one, or why nothing changed. */
export type Rotation =
  | { ok: true; old: KeyRecord; replacement: KeyRecord & { key: string } }
  | { ok: false; reason: "missing" }
  | { ok: false; reason: "scopes"; scopes: ApiKeyScope[] };

/** Optional details of a rotation (`rotateKey`). */
export interface RotationOptions {
  /** Who asked for the new key; default the old key's creator. */
  createdBy?: string | null;
  /**
   * The scopes the caller may hand out (default all of `API_KEY_SCOPES`); a key with any other
   * scope is not rotated, so that rotation never hands someone a key stronger than they could
   * create (issue 32).
   */
  mayGrant?: readonly string[];
}

/**
 * Rotates a key: issues a new key with the same name and scopes and makes the old one expire
 * ROTATION_GRACE_SECONDS (60 s) from now, so deployments can switch without downtime.
 * `reason: "scopes"` (nothing changes) when the key has a scope outside `options.mayGrant`;
 * `reason: "missing"` when the project has no such active key.
 */
export async function rotateKey(db: Db, projectId: string, keyId: string, options: RotationOptions = {}): Promise<Rotation> {
  const { createdBy = null, mayGrant = API_KEY_SCOPES } = options;
  return db.transaction(async (tx) => {
    const [old] = await tx
      .select(keyColumns)
      .from(apiKeys)
      .where(and(projectRow(apiKeys, projectId, keyId), isNull(apiKeys.revoked_at)))
      .for("update");
    if (!old || (old.expires_at && old.expires_at <= new Date())) return { ok: false, reason: "missing" } as const;
    if (!old.scopes.every((s) => mayGrant.includes(s))) return { ok: false, reason: "scopes", scopes: old.scopes } as const;
    // The project exists: it owns the key being rotated, locked above.
    const replacement = (await createKey(tx as unknown as Db, projectId, old.name, { createdBy: createdBy ?? old.created_by, scopes: old.scopes }))!;
    const [updated] = await tx
      .update(apiKeys)
      .set({
        expires_at: sql`least(coalesce(${apiKeys.expires_at}, 'infinity'), now() + make_interval(secs => ${ROTATION_GRACE_SECONDS}))`,
        replaced_by: replacement.id,
      })
      .where(eq(apiKeys.id, keyId))
      .returning(keyColumns);
    return { ok: true, old: updated!, replacement } as const;
  });
}

/** Deletes a key for good. Returns false when the project has no such key. */
export async function deleteKey(db: Db, projectId: string, keyId: string): Promise<boolean> {
  return deleteProjectRow(db, apiKeys, projectId, keyId);
}
