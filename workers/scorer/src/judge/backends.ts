/**
 * The guard-model tier's backends (docs/scoring.md "Guard-model tier"): Workers AI through the
 * `AI` binding, or any OpenAI-compatible chat-completions endpoint (a self-hosted Llama Guard,
 * Granite Guardian or Qwen3Guard behind vLLM or Ollama, or a hosted model). Each turns a
 * `JudgeRequest` (src/scoring/judge/prompts.ts) into a `GuardVerdict`, or null when the answer
 * is not a verdict; errors reject. Timeouts and concurrency are ./ask.ts's.
 */
import { llamaGuardVerdict, parseLlamaGuard } from "../../../../src/scoring/scorers/content_safety/judge";
import type { JudgeHook, JudgePromptKind } from "../../../../src/scoring/judge/hook";
import { type GuardVerdict, parsePolicyVerdict } from "../../../../src/scoring/judge/parse";
import { type JudgeRequest, VERDICT_JSON_SCHEMA } from "../../../../src/scoring/judge/prompts";
import { isObject } from "../../../../src/util";

/** A guard model service. */
export interface JudgeBackend {
  /** How this backend asks about a scorer with hook `hook` (a Llama Guard conversation only to a Llama Guard model). */
  kind(hook: JudgeHook): JudgePromptKind;
  /** The model id that answers requests of `kind` (recorded as the score's `decided_by`). */
  model(kind: JudgePromptKind): string;
  /** Asks once: the verdict, or null for an answer that is not one; rejects on errors; stops on `signal`. */
  ask(request: JudgeRequest, signal: AbortSignal): Promise<GuardVerdict | null>;
}

/** Workers AI model id of Llama Guard 3 8B (https://developers.cloudflare.com/workers-ai/models/llama-guard-3-8b/). */
export const LLAMA_GUARD_MODEL = "@cf/meta/llama-guard-3-8b";

/**
 * The Workers AI instruct model of the policy prompts by default: Llama 3.1 8B (fast), one of
 * the models Workers AI's JSON mode supports (https://developers.cloudflare.com/workers-ai/json-mode/).
 */
export const DEFAULT_AI_POLICY_MODEL = "@cf/meta/llama-3.1-8b-instruct-fast";

/** Tokens a verdict may take: "unsafe" and 14 codes, or the JSON verdict with a 20-word reason. */
const MAX_VERDICT_TOKENS = 100;

/** The slice of the `Ai` binding the judge uses: `run` resolves to `{response?, usage?}` and rejects on errors. */
export interface AiRunner {
  run(model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
}

/** The `response` field of a Workers AI text-generation output (`{response, usage}`), or undefined. */
const responseOf = (output: unknown) => (isObject(output) ? output.response : undefined);

/**
 * Workers AI: `@cf/meta/llama-guard-3-8b` for Llama Guard conversations (JSON response format,
 * so `response` is `{safe, categories}`), `policyModel` with JSON mode (`json_schema`) for the
 * policy prompts. Temperature 0 for repeatable verdicts (both models default to 0.6).
 */
export function workersAiBackend(ai: AiRunner, policyModel = DEFAULT_AI_POLICY_MODEL): JudgeBackend {
  return {
    kind: (hook) => hook.prompt,
    model: (kind) => (kind === "llama_guard" ? LLAMA_GUARD_MODEL : policyModel),
    async ask(request, signal) {
      if (request.kind === "llama_guard") {
        const inputs = { messages: request.messages, response_format: { type: "json_object" }, temperature: 0, max_tokens: MAX_VERDICT_TOKENS };
        const verdict = parseLlamaGuard(responseOf(await ai.run(LLAMA_GUARD_MODEL, inputs, { signal })));
        return verdict && llamaGuardVerdict(verdict);
      }
      const inputs = {
        messages: request.messages,
        response_format: { type: "json_schema", json_schema: VERDICT_JSON_SCHEMA },
        temperature: 0,
        max_tokens: MAX_VERDICT_TOKENS,
      };
      return parsePolicyVerdict(responseOf(await ai.run(policyModel, inputs, { signal })));
    },
  };
}

/** Settings of an OpenAI-compatible endpoint (docs/configuration.md `JUDGE_*`). */
export interface OpenAiJudgeSettings {
  /** Base URL up to and including the API version, e.g. `http://127.0.0.1:8000/v1` (vLLM) or `http://127.0.0.1:11434/v1` (Ollama). */
  baseUrl: string;
  /** The model name the endpoint serves, e.g. `meta-llama/Llama-Guard-3-8B` or `llama-guard3:8b`. */
  model: string;
  /** Bearer token, when the endpoint wants one. */
  apiKey?: string;
}

/** Whether `model` names a Llama Guard model (which answers "safe" / "unsafe\nS1,S10", not JSON). */
export const isLlamaGuardModel = (model: string) => /llama[-_ ]?guard/i.test(model);

/** Thrown for a non-2xx answer of an OpenAI-compatible endpoint; the message holds the status only. */
export class JudgeHttpError extends Error {
  constructor(readonly status: number) {
    super(`judge endpoint answered HTTP ${status}`);
  }
}

/**
 * An OpenAI-compatible chat-completions endpoint (`POST <baseUrl>/chat/completions`): a Llama
 * Guard model gets the conversation (its chat template adds the taxonomy) and its text answer is
 * parsed; any other model gets the policy prompts with `response_format: {type: "json_object"}`
 * (vLLM and Ollama honour it). `fetcher` defaults to the global `fetch`.
 */
export function openAiBackend(settings: OpenAiJudgeSettings, fetcher: typeof fetch = fetch): JudgeBackend {
  const url = `${settings.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const guard = isLlamaGuardModel(settings.model);
  return {
    kind: (hook) => (hook.prompt === "llama_guard" && guard ? "llama_guard" : "policy"),
    model: () => settings.model,
    async ask(request, signal) {
      const body = {
        model: settings.model,
        messages: request.messages,
        temperature: 0,
        max_tokens: MAX_VERDICT_TOKENS,
        ...(request.kind === "policy" ? { response_format: { type: "json_object" } } : {}),
      };
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
      const res = await fetcher(url, { method: "POST", headers, body: JSON.stringify(body), signal });
      if (!res.ok) {
        await res.body?.cancel();
        throw new JudgeHttpError(res.status);
      }
      const json: unknown = await res.json().catch(() => null);
      const content =
        isObject(json) && Array.isArray(json.choices) && isObject(json.choices[0]) && isObject(json.choices[0].message)
          ? json.choices[0].message.content
          : undefined;
      if (typeof content !== "string") return null;
      if (request.kind === "llama_guard") {
        const verdict = parseLlamaGuard(content);
        return verdict && llamaGuardVerdict(verdict);
      }
      return parsePolicyVerdict(content);
    },
  };
}
