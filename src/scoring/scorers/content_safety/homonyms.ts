/**
 * What content_safety's hazard rules and request-intent indicator do not read: XSTest-style safe
 * homonyms ("kill a Python process") and descriptive sentences (history, fiction, games,
 * physically impossible requests). One module so the rules (./rules.ts) and the intent indicator
 * (./intent.ts) blank the same text.
 */
import { ENDORSEMENT, NONSENSE, OPERATIONAL_DETAIL, PEST_CONTEXT, PEST_PRONOUN, SAFE_CONTEXT, SAFE_HOMONYMS } from "./lexicon";

/** Blanks XSTest-style safe homonyms ("kill a Python process") so hazard rules skip them. */
export function stripHomonyms(text: string): string {
  // Sentences about history, fiction or games are descriptive (XSTest safe contexts) unless
  // they endorse the harm or ask for operational detail; physically impossible requests are
  // nonsense (XSTest).
  const descriptive = (s: string) => (SAFE_CONTEXT.test(s) && !ENDORSEMENT.test(s) && !OPERATIONAL_DETAIL.test(s)) || NONSENSE.test(s);
  let t =
    text.length < 2000
      ? text
          .split(/(?<=[.?!])\s+|\n/)
          .filter((s) => !descriptive(s))
          .join("\n")
      : text;
  for (const re of SAFE_HOMONYMS) t = t.replace(re, " ");
  if (PEST_CONTEXT.test(t)) t = t.replace(PEST_PRONOUN, " ");
  return t;
}
