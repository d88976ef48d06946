/**
 * What content_safety's hazard rules and request-intent indicator do not read: XSTest-style safe
 * homonyms ("kill a Python process") and descriptive sentences (history, fiction, games,
 * physically impossible requests, questions that seek protection or help). One module so the rules (./rules.ts) and the intent indicator
 * (./intent.ts) blank the same text.
 */
import { ENDORSEMENT, NONSENSE, OPERATIONAL_DETAIL, PERPETRATOR, PEST_CONTEXT, PEST_PRONOUN, PROTECTIVE, SAFE_CONTEXT, SAFE_HOMONYMS } from "./lexicon";

/**
 * Blanks XSTest-style safe homonyms ("kill a Python process") so hazard rules skip them. With
 * `protective`, also sentences that seek protection or help against a harm (`PROTECTIVE`): the
 * hazard rules skip them, the request-intent indicator does not (round 11: blanking them there
 * shifted the model's weights and cost recall on hateful statements elsewhere).
 */
export function stripHomonyms(text: string, protective = false): string {
  // Sentences about history, fiction or games are descriptive (XSTest safe contexts) unless
  // they endorse the harm or ask for operational detail; physically impossible requests are
  // nonsense (XSTest).
  // So are questions that seek protection or help against a harm (`PROTECTIVE`).
  const descriptive = (s: string) =>
    ((SAFE_CONTEXT.test(s) || (protective && PROTECTIVE.test(s) && !PERPETRATOR.test(s))) && !ENDORSEMENT.test(s) && !OPERATIONAL_DETAIL.test(s)) ||
    NONSENSE.test(s);
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
