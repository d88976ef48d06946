/**
 * The guard tier's verdict and the parser of the JSON verdict a policy prompt asks for
 * (./prompts.ts). Defensive: instruct models wrap JSON in prose or code fences, and Workers AI's
 * JSON mode hands back the object already parsed.
 */
import { z } from "zod";
import { isObject } from "../../util";

/**
 * A guard model's verdict on one scorer's question: `unsafe`, and why in a few words (`reason`:
 * the model's own words, or Llama Guard's named categories; at most `MAX_REASON_CHARS`, may be
 * empty).
 */
export interface GuardVerdict {
  unsafe: boolean;
  reason: string;
}

/** Characters of a model's `reason` kept in the rationale. */
export const MAX_REASON_CHARS = 200;

const PolicyVerdict = z.object({ unsafe: z.boolean(), reason: z.string().optional() });

/** The first balanced `{...}` of `text` (strings and escapes respected), or null. */
function firstObject(text: string): string | null {
  const start = text.indexOf("{");
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

/**
 * Parses a policy verdict `{"unsafe": bool, "reason": "..."}`: an object (Workers AI JSON mode
 * puts the parsed object in `response`), or text holding one JSON object, possibly in a code
 * fence or after a sentence. `unsafe` must be a JSON boolean; `reason` is optional text, trimmed
 * to one line of `MAX_REASON_CHARS`. Anything else (no object, invalid JSON, a string
 * `"unsafe": "yes"`) is null: no verdict.
 */
export function parsePolicyVerdict(raw: unknown): GuardVerdict | null {
  let value: unknown = raw;
  if (typeof raw === "string") {
    const json = firstObject(raw);
    if (!json) return null;
    try {
      value = JSON.parse(json);
    } catch {
      return null;
    }
  }
  if (!isObject(value)) return null;
  const parsed = PolicyVerdict.safeParse(value);
  if (!parsed.success) return null;
  const reason = (parsed.data.reason ?? "").replace(/\s+/g, " ").trim().slice(0, MAX_REASON_CHARS);
  return { unsafe: parsed.data.unsafe, reason };
}
