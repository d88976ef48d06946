/**
 * Context windows (in tokens) of known models, read from the maintained price/model table of
 * `@pydantic/genai-prices` (pure JS data, runs in Workers). Unknown models, or models the
 * table lists without a window, fall back to DEFAULT_CONTEXT_WINDOW.
 */
import { findProvider, type MatchLogic, type Provider } from "@pydantic/genai-prices";

/** Fallback window in tokens (128k: GPT-4o/4o-mini, Llama 3.1, Mistral Large 2). */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

function matches(logic: MatchLogic, id: string): boolean {
  if ("equals" in logic) return id === logic.equals;
  if ("starts_with" in logic) return id.startsWith(logic.starts_with);
  if ("ends_with" in logic) return id.endsWith(logic.ends_with);
  if ("contains" in logic) return id.includes(logic.contains);
  if ("regex" in logic) {
    try {
      return new RegExp(logic.regex).test(id);
    } catch {
      return false;
    }
  }
  if ("or" in logic) return logic.or.some((l) => matches(l, id));
  if ("and" in logic) return logic.and.every((l) => matches(l, id));
  return false;
}

const memo = new Map<string, { window: number; known: boolean }>();

/** Context window of `model` (optionally at `provider`), and whether the table knew it. */
export function contextWindow(model: string, provider?: string): { window: number; known: boolean } {
  const key = `${provider ?? ""}\u0000${model}`;
  const hit = memo.get(key);
  if (hit) return hit;
  let found: { window: number; known: boolean } = { window: DEFAULT_CONTEXT_WINDOW, known: false };
  try {
    const id = model.toLowerCase().replace(/^[\w-]+\//, "");
    const p: Provider | undefined = findProvider({ modelId: id, providerId: provider }) ?? findProvider({ modelId: id });
    const info = p?.models.find((m) => matches(m.match, id));
    if (info?.context_window) found = { window: info.context_window, known: true };
  } catch {
    // an unknown provider id or malformed table entry keeps the default
  }
  if (memo.size < 1000) memo.set(key, found);
  return found;
}
