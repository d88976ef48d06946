/**
 * `unbounded_consumption`: OWASP LLM10:2025 Unbounded Consumption signals of one call.
 * Always scorable (token counts and parameters are always present). Thresholds below are
 * absolute; when `metadata.project_stats` carries `p99_cost_usd` / `p99_latency_ms`, the
 * outlier rules compare against those instead.
 */
import { contextWindow } from "./context-windows";
import { extracted, result, type Finding } from "../../rules";
import type { ScorableCall, ScoreResult, Scorer } from "../../types";

/** Thresholds, with units. */
export const LIMITS = {
  /** Prompt share of the context window that counts as "near" (fraction). */
  nearWindow: 0.8,
  /** max_tokens share of the window that counts as huge (fraction). */
  hugeMaxTokens: 0.5,
  /** Cost of one call in USD above which it is an outlier (absolute). */
  costUsd: 1.0,
  /** Latency of one call in ms above which it is an outlier (absolute, 2 minutes). */
  latencyMs: 120_000,
  /** Share of repeated word 4-grams in a completion that marks runaway repetition. */
  repetition: 0.5,
  /** Minimum completion words before repetition is judged. */
  repetitionMinWords: 200,
} as const;

/**
 * Share of word n-grams (default 4) in `text` that repeat an earlier n-gram (0..1); linear
 * time. Words get exact integer ids; an n-gram is keyed by two 32-bit mixes of its ids packed
 * into 52 bits, so two different n-grams share a key with probability about 2^-52 per pair.
 * A text of fewer than `minWords` words gets ratio 0 without the n-gram count.
 */
export function repeatedNgramRatio(text: string, n = 4, minWords = n + 1): { ratio: number; words: number } {
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  if (words.length < Math.max(minWords, n + 1)) return { ratio: 0, words: words.length };
  const idOf = new Map<string, number>();
  const ids = new Int32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    let id = idOf.get(words[i]!);
    if (id === undefined) {
      id = idOf.size + 1;
      idOf.set(words[i]!, id);
    }
    ids[i] = id;
  }
  const seen = new Set<number>();
  let repeats = 0;
  for (let i = 0; i + n <= words.length; i++) {
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    for (let k = i; k < i + n; k++) {
      a = Math.imul(a ^ ids[k]!, 0x01000193);
      b = Math.imul(b ^ ids[k]!, 0x5bd1e995) ^ (b >>> 15);
    }
    const key = (a >>> 0) * 0x100000 + (b & 0xfffff);
    if (seen.has(key)) repeats++;
    else seen.add(key);
  }
  return { ratio: repeats / (words.length - n + 1), words: words.length };
}

function statNumber(meta: ScorableCall["metadata"], key: string): number | undefined {
  const stats = meta?.project_stats;
  if (typeof stats !== "object" || stats === null) return undefined;
  const v = (stats as Record<string, unknown>)[key];
  return typeof v === "number" && v > 0 ? v : undefined;
}

/** Scores one call; every rule's evidence is a count or ratio, never payload text. */
export function scoreUnboundedConsumption(call: ScorableCall): ScoreResult {
  const x = extracted(call);
  const f: Finding[] = [];
  const { window, known } = contextWindow(call.model, call.provider);
  const prompt = call.prompt_tokens || 0;
  const share = prompt / window;
  if (share >= 1) f.push({ rule: "prompt_over_context_window", weight: 5, where: "prompt", count: 1 });
  else if (share >= LIMITS.nearWindow) f.push({ rule: "prompt_near_context_window", weight: 4, where: "prompt", count: 1 });
  const maxTokens = x.params.maxTokens;
  if (maxTokens !== undefined && maxTokens >= window * LIMITS.hugeMaxTokens)
    f.push({ rule: "huge_max_tokens", weight: maxTokens >= window ? 4 : 3, where: "params", count: 1 });
  const n = x.params.n ?? 1;
  if (n > 1) f.push({ rule: "multiple_completions_n", weight: n >= 8 ? 4 : 2, where: "params", count: n });
  if (x.params.logprobs || (x.params.topLogprobs ?? 0) > 0)
    f.push({ rule: "logprobs_exposed", weight: (x.params.topLogprobs ?? 0) >= 10 ? 3 : 2, where: "params", count: 1 });
  const truncated = x.finishReasons.filter((r) => /^(?:length|max_tokens|MAX_TOKENS|model_length)$/i.test(r)).length;
  if (truncated > 0) f.push({ rule: "finish_reason_length", weight: 3, where: "completion", count: truncated });
  for (const c of x.completion) {
    const rep = repeatedNgramRatio(c.length > 200_000 ? c.slice(0, 200_000) : c, 4, LIMITS.repetitionMinWords);
    if (rep.words >= LIMITS.repetitionMinWords && rep.ratio >= LIMITS.repetition) {
      f.push({ rule: "runaway_repetition", weight: rep.ratio >= 0.8 ? 4 : 3, where: "completion", count: Math.round(rep.ratio * 100) });
    }
  }
  const costLimit = statNumber(call.metadata, "p99_cost_usd") ?? LIMITS.costUsd;
  if (call.cost_usd !== null && call.cost_usd > costLimit)
    f.push({ rule: "cost_outlier", weight: call.cost_usd > costLimit * 10 ? 4 : 3, where: "call", count: 1 });
  const latencyLimit = statNumber(call.metadata, "p99_latency_ms") ?? LIMITS.latencyMs;
  if (call.latency_ms > latencyLimit) f.push({ rule: "latency_outlier", weight: call.latency_ms > latencyLimit * 5 ? 4 : 3, where: "call", count: 1 });
  const basis = `prompt ${prompt} tokens of ${window} window${known ? "" : " (default)"}`;
  return result(f, f.length ? `${basis}; consumption signals` : `${basis}; no consumption signal`);
}

/** The `unbounded_consumption` scorer. */
export const unboundedConsumption: Scorer = { name: "unbounded_consumption", score: scoreUnboundedConsumption };
