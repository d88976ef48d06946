/**
 * `@openai/guardrails` (npm, OpenAI Guardrails for TypeScript): of its checks only the
 * regular-expression ones run offline; "Contains PII" (block mode, the entities Sightline's
 * pii_detection label names) is run through `instantiateGuardrails` once and the configured
 * guardrail's `run` per call; `tripwireTriggered` flags the text.
 */
import { instantiateGuardrails } from "@openai/guardrails";
import type { Peer } from "./types";
import { installedVersion } from "./version";

/** Entities of the pii_detection label (eval README): card, SSN, IBAN, email, phone, IP, driver's licence, address. */
const ENTITIES = ["CREDIT_CARD", "US_SSN", "IBAN_CODE", "EMAIL_ADDRESS", "PHONE_NUMBER", "IP_ADDRESS", "US_DRIVER_LICENSE", "LOCATION"];

/** The @openai/guardrails peer: "Contains PII" beside pii_detection. */
export async function openaiGuardrailsPeer(): Promise<Peer> {
  const [pii] = await instantiateGuardrails({
    version: 1,
    guardrails: [{ name: "Contains PII", config: { entities: ENTITIES, block: true, detect_encoded_pii: false } }],
  });
  return {
    name: "@openai/guardrails",
    version: installedVersion("@openai/guardrails"),
    checks: {
      pii_detection: { what: `Contains PII {${ENTITIES.join(", ")}}, block`, flags: async (text) => (await pii!.run({}, text)).tripwireTriggered },
    },
    notRun: [
      "Moderation: OpenAI's moderation API (hosted)",
      "Jailbreak, Prompt Injection Detection, NSFW Text, Off Topic Prompts, Custom Prompt Check: LLM-judged (an OpenAI model call each)",
      "Hallucination Detection: OpenAI file search (hosted)",
    ],
  };
}
