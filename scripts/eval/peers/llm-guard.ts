/**
 * `llm-guard` (npm, therizwan/llm-guard): regular-expression and word-list guards behind
 * `new LLMGuard(config).validate(prompt)`; a guard's result `valid: false` flags the text.
 * One LLMGuard per check, with only that check's guards enabled (`relevance` never: it judges
 * length, not safety).
 */
import { type GuardConfig, LLMGuard } from "llm-guard";
import type { Peer, PeerCheck } from "./types";
import { installedVersion } from "./version";

const OFF: GuardConfig = { pii: false, jailbreak: false, profanity: false, promptInjection: false, relevance: false, toxicity: false };

function check(on: Array<keyof typeof OFF>): PeerCheck {
  const guard = new LLMGuard({ ...OFF, ...Object.fromEntries(on.map((k) => [k, true])) });
  return { what: `LLMGuard {${on.join(", ")}}`, flags: async (text) => !(await guard.validate(text)).isValid };
}

/** The llm-guard peer: content (toxicity + profanity), jailbreak (jailbreak + prompt injection), PII, and prompt injection on documents. */
export function llmGuardPeer(): Peer {
  return {
    name: "llm-guard",
    version: installedVersion("llm-guard"),
    checks: {
      content_safety: check(["toxicity", "profanity"]),
      jailbreak_detection: check(["jailbreak", "promptInjection"]),
      pii_detection: check(["pii"]),
      vector_weakness: check(["promptInjection"]),
    },
    notRun: [],
  };
}
