/**
 * API key format and hashing (DESIGN.md, "API keys"): `slk_` + 48 lowercase hex characters
 * (24 random bytes from the Web Crypto CSPRNG). Only the SHA-256 hex digest is stored.
 */
import { toHex } from "../util";

/** Prefix of every Sightline API key. */
export const KEY_PREFIX = "slk_";

/** Matches a well-formed key; anything else is refused before touching the database. */
export const KEY_PATTERN = /^slk_[0-9a-f]{48}$/;

/** Seconds a rotated key keeps working (interface spec, section 3: "within 60 seconds"). */
export const ROTATION_GRACE_SECONDS = 60;

/** A new random key, e.g. `slk_3f2a…` (52 characters). */
export function generateKey(): string {
  return KEY_PREFIX + toHex(crypto.getRandomValues(new Uint8Array(24)));
}

/** SHA-256 of the key as 64 lowercase hex characters. */
export async function hashKey(key: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key))));
}

/** Display hint that identifies a key without revealing it: `slk_1a2b…9f0e`. */
export function keyHint(key: string): string {
  return `${key.slice(0, 8)}…${key.slice(-4)}`;
}
