/**
 * Constant-time comparison of the internal secret. Both sides are hashed with SHA-256 first,
 * so the comparison has fixed length and leaks neither content nor length; then
 * `crypto.subtle.timingSafeEqual` (a Workers runtime extension) compares the digests.
 */
export async function secretsEqual(presented: string, expected: string | undefined): Promise<boolean> {
  if (!expected) return false; // no secret configured: the internal routes stay closed
  const enc = new TextEncoder();
  const [a, b] = await Promise.all([crypto.subtle.digest("SHA-256", enc.encode(presented)), crypto.subtle.digest("SHA-256", enc.encode(expected))]);
  return crypto.subtle.timingSafeEqual(a, b);
}
