/**
 * `pii_detection`: personal data and credentials in the prompt, supplied context or
 * completion (docs/decisions.md D17; OWASP LLM02:2025 Sensitive Information Disclosure).
 * Detection lives in src/pii/ (patterns, validators, `findPii`); this module turns hits into a score.
 */
import { findPii, type PiiAllowList, type PiiHit } from "../../../pii/detect";
import { extracted, result, unscored, where, type Finding } from "../../rules";
import { textLength } from "../../text";
import type { ScorableCall, ScoreResult, Scorer } from "../../types";

function toFindings(hits: PiiHit[], at: string, out: Finding[], boost: (h: PiiHit) => number): void {
  const byId = new Map<string, Finding>();
  for (const h of hits) {
    const w = Math.min(5, h.weight + boost(h));
    const f = byId.get(h.id);
    if (f) {
      f.count++;
      f.weight = Math.max(f.weight, w);
    } else byId.set(h.id, { rule: h.id, weight: w, where: at, count: 1 });
  }
  out.push(...byId.values());
}

/**
 * Scores one call: each detector hit weighs 4 (credentials 5); several kinds of PII, or PII
 * in the completion that the prompt did not contain (disclosure), raise the score to 5.
 * Values on the `allow` list (a project's policy) are not counted.
 */
export function scorePii(call: ScorableCall, allow?: PiiAllowList): ScoreResult {
  const x = extracted(call);
  if (textLength(x) === 0) return unscored();
  const findings: Finding[] = [];
  const promptKeys = new Set<string>();
  const lists = [
    ["system", x.system],
    ["user", x.user],
    ["document", x.documents],
    ["history", x.history],
  ] as const;
  for (const [kind, texts] of lists) {
    texts.forEach((t, i) => {
      const hits = findPii(t, allow);
      for (const h of hits) promptKeys.add(h.key);
      toFindings(hits, where(kind, kind === "document" ? i : 0), findings, () => 0);
    });
  }
  let disclosed = 0;
  for (const t of x.completion) {
    const hits = findPii(t, allow);
    const fresh = hits.filter((h) => !promptKeys.has(h.key));
    disclosed += fresh.length;
    toFindings(hits, "completion", findings, (h) => (promptKeys.has(h.key) ? 0 : 1));
  }
  if (findings.length === 0) return result(findings, "no personal data or credentials found");
  const kinds = new Set(findings.map((f) => f.rule)).size;
  const summary = disclosed > 0 ? `completion discloses ${disclosed} value(s) absent from the prompt` : `${kinds} kind(s) of personal data or credentials`;
  return result(findings, summary);
}

/** The `pii_detection` scorer. */
export const piiDetection: Scorer = { name: "pii_detection", score: (call) => scorePii(call) };

/** The `pii_detection` scorer that does not flag the values of `allow` (a project's policy). */
export function piiDetectionAllowing(allow: PiiAllowList): Scorer {
  return { name: "pii_detection", score: (call) => scorePii(call, allow) };
}
