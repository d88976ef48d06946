/**
 * Answers whose text holds ~150k distinct tokens (issue 26.1): more than fits in PostgreSQL's
 * 1 MiB tsvector when the whole text is indexed (about 12-15 bytes per distinct lexeme), yet
 * under the tests' 1 MiB LOG_MAX_BYTES and the proxy's 1,000,000-character stream cap. Served by
 * the upstream stand-in (`x-test-big-answer`, test/proxy/stand-ins.ts) and compared against by
 * the tests. No Node APIs (imported in workerd too).
 */

/** Kinds of big answer. */
export type BigAnswerKind = "words" | "numbers";

const cache = new Map<BigAnswerKind, string>();

/** The `i`-th four-letter lower-case word ("aaaa", "aaab", ...; 456,976 exist). */
export function fourLetterWord(i: number): string {
  let out = "";
  for (let k = 0, n = i; k < 4; k++, n = Math.floor(n / 26)) out = String.fromCharCode(97 + (n % 26)) + out;
  return out;
}

/**
 * `words`: 150,000 distinct four-letter words separated by spaces (749,999 characters);
 * `numbers`: 0..149,999 as one CSV line (938,889 characters).
 */
export function bigAnswer(kind: BigAnswerKind): string {
  let text = cache.get(kind);
  if (!text) {
    const items = Array.from({ length: 150_000 }, (_, i) => (kind === "words" ? fourLetterWord(i) : String(i)));
    text = items.join(kind === "words" ? " " : ",");
    cache.set(kind, text);
  }
  return text;
}
