/**
 * Password hashing for Better Auth inside Workers: PBKDF2-HMAC-SHA-256 through WebCrypto
 * (native code in workerd), instead of Better Auth's default scrypt in JavaScript
 * (@noble/hashes), whose CPU time per hash does not fit a Worker's CPU budget well.
 * 100,000 iterations is the most workerd's WebCrypto accepts for PBKDF2; OWASP's Password
 * Storage Cheat Sheet asks 600,000 for PBKDF2-SHA-256, so sign-in throttling
 * (server/auth/auth.ts) carries part of the weight. Measured (npm run bench:password,
 * bench/results/dashboard-password.md): ~16 ms CPU per hash or check, against ~100 ms for
 * Better Auth's default scrypt; within the paid plan's CPU limit, not the free plan's 10 ms.
 *
 * Stored form: `pbkdf2-sha256$<iterations>$<salt base64>$<hash base64>`.
 */

/** Iterations of new hashes (workerd's maximum for PBKDF2). */
export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (s: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(s), (ch) => ch.charCodeAt(0));

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password.normalize("NFKC")), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, HASH_BITS);
  return new Uint8Array(bits);
}

/** Hashes a password with a fresh random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${b64(salt)}$${b64(await derive(password, salt, PBKDF2_ITERATIONS))}`;
}

/** Checks a password against a stored hash in constant time; false for a malformed hash. */
export async function verifyPassword({ hash, password }: { hash: string; password: string }): Promise<boolean> {
  const [scheme, iter, salt, expected] = hash.split("$");
  const iterations = Number(iter);
  if (scheme !== "pbkdf2-sha256" || !salt || !expected || !Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_ITERATIONS) return false;
  const actual = await derive(password, unb64(salt), iterations);
  const want = unb64(expected);
  if (actual.length !== want.length) return false;
  let diff = 0;
  for (let i = 0; i < actual.length; i++) diff |= actual[i]! ^ want[i]!;
  return diff === 0;
}
