/**
 * Shared machinery for rule-table scorers: the rule shape, per-call extraction cache,
 * match counting and the mapping from fired rules to a Likert score and rationale.
 */
import { mayMatch } from "./prefilter";
import { extractCall, type ExtractedCall } from "./text";
import { labelFor, type ScorableCall, type ScoreResult } from "./types";

/**
 * One documented pattern. `weight` is the Likert score (1-5) the rule implies on its own;
 * `source` names the taxonomy entry, recognizer, standard or paper the rule comes from.
 */
export interface Rule {
  id: string;
  pattern: RegExp;
  weight: number;
  source: string;
}

/** A rule that fired: which rule, where (prompt, completion, document N...), how often. */
export interface Finding {
  rule: string;
  weight: number;
  where: string;
  count: number;
}

const cache = new WeakMap<ScorableCall, ExtractedCall>();

/** Extraction of `call`, computed once per call object and shared by the six scorers. */
export function extracted(call: ScorableCall): ExtractedCall {
  let x = cache.get(call);
  if (!x) {
    x = extractCall(call.request_body, call.response_body);
    cache.set(call, x);
  }
  return x;
}

const memos = new WeakMap<ExtractedCall, Map<string, unknown>>();

/**
 * `compute()` evaluated once per extracted call under `key` and shared by the scorers that need
 * it (they run one after another on the same call): passage token sets, document units, rule
 * hits that two scorers read.
 */
export function memo<T>(x: ExtractedCall, key: string, compute: () => T): T {
  let m = memos.get(x);
  if (!m) {
    m = new Map();
    memos.set(x, m);
  }
  if (!m.has(key)) m.set(key, compute());
  return m.get(key) as T;
}

/**
 * Number of matches of a global regex in `text` (stops counting at `cap`); 0 at once when the
 * pattern's literal prefilter rules a match out (./prefilter.ts).
 */
export function countMatches(re: RegExp, text: string, cap = 1000): number {
  if (!mayMatch(re, text)) return 0;
  if (!re.global) return re.test(text) ? 1 : 0;
  re.lastIndex = 0;
  let n = 0;
  while (n < cap && re.exec(text) !== null) {
    n++;
    if (re.lastIndex === 0) break;
  }
  re.lastIndex = 0;
  return n;
}

/** Applies a rule table to one text and appends a finding per rule that matched. */
export function applyRules(rules: readonly Rule[], text: string, where: string, out: Finding[]): void {
  for (const r of rules) {
    const count = countMatches(r.pattern, text);
    if (count > 0) out.push({ rule: r.id, weight: r.weight, where, count });
  }
}

/**
 * Likert score of a set of findings: the heaviest rule's weight, plus one when at least two
 * distinct rules of weight >= 3 agree (corroboration), capped at 5; 1 when nothing fired.
 */
export function scoreOf(findings: readonly Finding[]): 1 | 2 | 3 | 4 | 5 {
  if (findings.length === 0) return 1;
  let max = 1;
  const strong = new Set<string>();
  for (const f of findings) {
    max = Math.max(max, f.weight);
    if (f.weight >= 3) strong.add(f.rule);
  }
  const v = Math.min(5, Math.max(1, Math.round(max + (strong.size >= 2 && max < 5 ? 1 : 0))));
  return v as 1 | 2 | 3 | 4 | 5;
}

/** Rationale listing fired rules as `rule@where xN`, never the matched text. */
export function describe(findings: readonly Finding[], limit = 8): string {
  const merged = new Map<string, Finding>();
  for (const f of findings) {
    const key = `${f.rule}@${f.where}`;
    const prev = merged.get(key);
    if (prev) prev.count += f.count;
    else merged.set(key, { ...f });
  }
  const list = [...merged.values()].sort((a, b) => b.weight - a.weight);
  const parts = list.slice(0, limit).map((f) => `${f.rule}@${f.where}${f.count > 1 ? ` x${f.count}` : ""}`);
  if (list.length > limit) parts.push(`+${list.length - limit} more`);
  return parts.join("; ");
}

/** Builds a ScoreResult from findings with a scorer-specific summary prefix. */
export function result(findings: readonly Finding[], summary: string, override?: 1 | 2 | 3 | 4 | 5): ScoreResult {
  const value = override ?? scoreOf(findings);
  const detail = findings.length ? `: ${describe(findings)}` : "";
  return { score_value: value, score_label: labelFor(value), rationale: `${summary}${detail}` };
}

/** The `unscored` verdict for a call without any text to judge. */
export function unscored(reason = "no text to judge"): ScoreResult {
  return { score_value: null, score_label: "unscored", rationale: reason };
}

/** Location label for a text list entry: `prompt`, `system`, `completion`, `document 2`. */
export function where(kind: "system" | "user" | "document" | "history" | "completion", index: number): string {
  if (kind === "document") return `document ${index + 1}`;
  if (kind === "user") return "prompt";
  return kind;
}
