/**
 * Token counts of one call: the provider's `usage` when it reported one, else an estimate.
 *
 * Reported shapes (OpenAI API reference): Chat Completions, Completions and Embeddings have
 * `usage.{prompt_tokens, completion_tokens}`; Responses has `usage.{input_tokens, output_tokens}`.
 * Their cached prompt tokens are read from the same body at ingest (src/pricing/logged-cost.ts).
 *
 * Estimates use gpt-tokenizer's `o200k_base` encoding (GPT-4o, GPT-4.1, GPT-5, o-series),
 * plus OpenAI's chat framing of 3 tokens per message and 3 for the reply (OpenAI cookbook,
 * "How to count tokens with tiktoken"). Other model families tokenize differently, so those
 * counts are approximations, logged as `token_count_source: "estimated"`. The encoding's
 * rank table is large (2.4 MB of source, ~200 ms to build), so it is loaded on first use,
 * after the client's response, never at worker startup.
 */
import { isObject } from "../../../src/util";

/** Token counts of one call. */
export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** Text counted exactly; the rest of a longer text is extrapolated (bounds CPU per call). */
export const EXACT_COUNT_CHARS = 100_000;

/**
 * Longest run of non-space characters counted as one piece: 128. gpt-tokenizer's BPE merge is
 * quadratic in the length of a pre-tokenized piece, and a run of letters is one piece: 8,192
 * "x" took 0.28 s, 30,000 took 2 s, and the 100,000 of a long uniform completion ~20 s of CPU
 * in the isolate that also streams other calls (Node 24, this machine). Longer runs are counted
 * in slices of this length (the same count for a uniform run; off by at most a token per cut).
 */
export const MAX_RUN_CHARS = 128;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN_CHARS + 1},}`, "g");

/** OpenAI chat framing (cookbook): tokens per message and for the reply's priming. */
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_REPLY = 3;

const int = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined);

/** The provider-reported usage of a response body, or undefined when it has none. */
export function reportedUsage(body: unknown): TokenUsage | undefined {
  const usage = isObject(body) ? body.usage : undefined;
  if (!isObject(usage)) return undefined;
  const prompt = int(usage.prompt_tokens) ?? int(usage.input_tokens);
  const completion = int(usage.completion_tokens) ?? int(usage.output_tokens) ?? (prompt !== undefined ? 0 : undefined);
  if (prompt === undefined || completion === undefined) return undefined;
  return { prompt_tokens: prompt, completion_tokens: completion };
}

/** Text of a message `content`: a string, or the `text` of its parts (images are not counted). */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((p) => (typeof p === "string" ? p : isObject(p) && typeof p.text === "string" ? p.text : "")).join("");
}

/** Prompt pieces of a request body: chat messages, `prompt`, `input`, `instructions`, tools. */
export function promptParts(request: unknown): { texts: string[]; messages: number } {
  if (!isObject(request)) return { texts: [], messages: 0 };
  const texts: string[] = [];
  let messages = 0;
  if (Array.isArray(request.messages)) {
    for (const m of request.messages) {
      if (!isObject(m)) continue;
      messages++;
      texts.push(String(m.role ?? ""), contentText(m.content));
      if (Array.isArray(m.tool_calls)) texts.push(JSON.stringify(m.tool_calls));
    }
  }
  for (const key of ["prompt", "input"] as const) {
    const v = request[key];
    if (typeof v === "string") texts.push(v);
    else if (Array.isArray(v)) for (const item of v) texts.push(typeof item === "string" ? item : isObject(item) ? contentText(item.content ?? item.text) : "");
  }
  if (typeof request.instructions === "string") texts.push(request.instructions);
  if (Array.isArray(request.tools)) texts.push(JSON.stringify(request.tools));
  return { texts, messages };
}

/** Completion pieces of a response body: message content, tool call arguments, text, output. */
export function completionParts(body: unknown): string[] {
  if (!isObject(body)) return [];
  const texts: string[] = [];
  if (Array.isArray(body.choices)) {
    for (const c of body.choices) {
      if (!isObject(c)) continue;
      if (typeof c.text === "string") texts.push(c.text);
      const m = isObject(c.message) ? c.message : undefined;
      if (!m) continue;
      texts.push(contentText(m.content));
      if (typeof m.refusal === "string") texts.push(m.refusal);
      if (Array.isArray(m.tool_calls))
        for (const t of m.tool_calls) if (isObject(t) && isObject(t.function)) texts.push(String(t.function.name ?? ""), String(t.function.arguments ?? ""));
    }
  }
  if (typeof body.output_text === "string") texts.push(body.output_text);
  if (Array.isArray(body.output))
    for (const item of body.output) if (isObject(item)) texts.push(contentText(item.content), typeof item.arguments === "string" ? item.arguments : "");
  return texts;
}

type Counter = (text: string) => number;
let counter: Promise<Counter> | undefined;

/** Loads the o200k_base encoder once (lazily: see the module doc). */
function loadCounter(): Promise<Counter> {
  counter ??= import("gpt-tokenizer/encoding/o200k_base").then((m) => (text: string) => m.countTokens(text, { disallowedSpecial: new Set() }));
  return counter;
}

/** Counts `text`, with runs longer than MAX_RUN_CHARS counted in slices. */
function countRuns(count: Counter, text: string): number {
  let total = 0;
  let last = 0;
  for (const run of text.matchAll(LONG_RUN)) {
    if (run.index > last) total += count(text.slice(last, run.index));
    for (let i = 0; i < run[0].length; i += MAX_RUN_CHARS) total += count(run[0].slice(i, i + MAX_RUN_CHARS));
    last = run.index + run[0].length;
  }
  return last === 0 ? count(text) : total + (last < text.length ? count(text.slice(last)) : 0);
}

/** Counts `text`, exactly up to EXACT_COUNT_CHARS and proportionally beyond. */
function countBounded(count: Counter, text: string): number {
  if (text.length <= EXACT_COUNT_CHARS) return countRuns(count, text);
  return Math.round((countRuns(count, text.slice(0, EXACT_COUNT_CHARS)) * text.length) / EXACT_COUNT_CHARS);
}

/** Estimates prompt and completion tokens of a call whose provider reported no usage. */
export async function estimateUsage(request: unknown, response: unknown): Promise<TokenUsage> {
  const count = await loadCounter();
  const prompt = promptParts(request);
  const promptText = prompt.texts.join("\n");
  const completionText = completionParts(response).join("");
  const framing = prompt.messages > 0 ? prompt.messages * TOKENS_PER_MESSAGE + TOKENS_PER_REPLY : 0;
  return {
    prompt_tokens: (promptText ? countBounded(count, promptText) : 0) + framing,
    completion_tokens: completionText ? countBounded(count, completionText) : 0,
  };
}
