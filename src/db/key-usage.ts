/**
 * `api_keys.last_used_at` without a write per ingest call: each isolate remembers when it last
 * recorded a key, and the UPDATE itself only touches a row whose stamp is older than a minute,
 * so a key costs at most one write per minute per isolate and one row change per minute overall.
 */
import { sql } from "drizzle-orm";
import type { Db } from "./driver/client";
import { logError } from "../logger";

/** Resolution of `last_used_at`, in milliseconds (the dashboard shows minutes). */
export const KEY_USE_INTERVAL_MS = 60_000;

/** Keys this isolate recorded recently: key hash -> Date.now() of the write. Bounded below. */
const recorded = new Map<string, number>();
const MAX_REMEMBERED = 10_000;

/** True when this isolate should record a use of `keyHash` now (and notes that it does). */
export function keyUseDue(keyHash: string, now = Date.now()): boolean {
  const last = recorded.get(keyHash);
  if (last !== undefined && now - last < KEY_USE_INTERVAL_MS) return false;
  if (recorded.size >= MAX_REMEMBERED) recorded.clear(); // a rare extra write beats unbounded memory
  recorded.set(keyHash, now);
  return true;
}

/**
 * Stamps `last_used_at` on an accepted key when due. Never throws: a failed stamp must not
 * fail the logged call.
 */
export async function recordKeyUse(db: Db, keyHash: string): Promise<void> {
  if (!keyUseDue(keyHash)) return;
  try {
    await db.execute(sql`UPDATE api_keys SET last_used_at = now()
      WHERE key_hash = ${keyHash}
        AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => ${KEY_USE_INTERVAL_MS / 1000}))`);
  } catch (err) {
    logError("last_used_at update failed", {}, err); // class and code only: the message would quote the key hash
  }
}
