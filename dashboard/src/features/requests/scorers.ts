/**
 * How scores read to a person: each scorer's short name and what it looks for, and the colour
 * and symbol of each state of a score (unsafe red ✕, safe green ✓, unscored grey –, pending …;
 * an unsafe score reviewed as a false positive amber and struck through). The symbol keeps the
 * meaning for people who cannot tell the colours apart (WCAG 1.4.1).
 */
import { SCORER_NAMES, type ScoreLabel, type ScorerName } from "../../../server/contract";
import type { Chip, Score } from "./types";

/** Short name and one-line description of each scorer (docs/decisions.md D17). */
export const SCORER_INFO: Record<ScorerName, { short: string; about: string }> = {
  content_safety: { short: "content", about: "harmful content (MLCommons hazards), judged on what the answer delivered" },
  pii_detection: { short: "PII", about: "personal data and credentials in the prompt or the answer" },
  jailbreak_detection: { short: "jailbreak", about: "prompt injection and jailbreak attempts, and an answer that complies" },
  data_poisoning: { short: "poisoning", about: "passages that contradict each other or the question, and an answer adopting the planted claim" },
  vector_weakness: { short: "vector", about: "instructions or hidden text in retrieved documents and tool results" },
  unbounded_consumption: { short: "consumption", about: "context-window pressure, huge limits, runaway output, cost and latency outliers" },
};

/** The scorers in chip order. */
export const SCORERS = SCORER_NAMES;

/** The state of one scorer's chip on a row. */
export type ChipState = ScoreLabel | "pending" | "false_positive";

/** A detail's score as a list chip: its review's verdict and whether the score changed since. */
export const chipOfScore = (s: Score): Chip => ({ ...s, verdict: s.review?.verdict ?? null, review_changed: s.review?.changed ?? false });

/** A chip's state: no score yet is `pending`; an unsafe score reviewed as a false positive is `false_positive`. */
export function chipState(c: Chip | undefined): ChipState {
  if (!c) return "pending";
  if (c.score_label === "unsafe" && c.verdict === "false_positive") return "false_positive";
  return c.score_label;
}

/** Classes, symbol and words of each state, for chips, cards and the legend. */
export const STATE_STYLE: Record<ChipState, { chip: string; symbol: string; words: string }> = {
  unsafe: {
    chip: "border-red-300 bg-red-100 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100",
    symbol: "✕",
    words: "unsafe",
  },
  safe: {
    chip: "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100",
    symbol: "✓",
    words: "safe",
  },
  unscored: {
    chip: "border-zinc-300 bg-zinc-100 text-zinc-700 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-200",
    symbol: "–",
    words: "unscored",
  },
  pending: {
    chip: "border-dashed border-zinc-400 bg-transparent text-zinc-600 dark:border-zinc-600 dark:text-zinc-300",
    symbol: "…",
    words: "pending",
  },
  false_positive: {
    chip: "border-amber-300 bg-amber-50 text-amber-900 line-through dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100",
    symbol: "✓",
    words: "reviewed false positive",
  },
};

/** The worst state of a row: unsafe if any unreviewed-or-confirmed unsafe score, else safe, unscored or pending. */
export function worstState(scores: Chip[]): ScoreLabel | "pending" {
  if (scores.length === 0) return "pending";
  if (scores.some((s) => chipState(s) === "unsafe")) return "unsafe";
  if (scores.some((s) => s.score_label === "safe")) return "safe";
  return "unscored";
}
