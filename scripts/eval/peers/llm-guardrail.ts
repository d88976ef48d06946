/**
 * `llm_guardrail` (npm): three TF-IDF + logistic-regression models shipped in the package
 * (prompt injection, jailbreak, malicious content), run offline; `detected: true` flags the
 * text. Its training data is not published: items of public sets it was fitted on may be among ours.
 */
import { checkInjection, checkJailbreak, checkMalicious } from "llm_guardrail";
import type { Peer } from "./types";
import { installedVersion } from "./version";

/** The llm_guardrail peer: malicious beside content_safety, injection or jailbreak beside jailbreak_detection, injection on documents. */
export function llmGuardrailPeer(): Peer {
  return {
    name: "llm_guardrail",
    version: installedVersion("llm_guardrail"),
    checks: {
      content_safety: { what: "checkMalicious", flags: async (text) => (await checkMalicious(text)).detected },
      jailbreak_detection: {
        what: "checkInjection or checkJailbreak",
        flags: async (text) => (await checkInjection(text)).detected || (await checkJailbreak(text)).detected,
      },
      vector_weakness: { what: "checkInjection", flags: async (text) => (await checkInjection(text)).detected },
    },
    notRun: [],
  };
}
