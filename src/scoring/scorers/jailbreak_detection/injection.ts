/**
 * Prompt-injection rules of `jailbreak_detection` for instructions smuggled into content the
 * user submits (a web page, résumé, article, code or table to summarise or answer from):
 * OWASP LLM01:2025 scenarios 2 and 3 in their direct form, and the injection variants of
 * Meta's CyberSecEval 2 prompt-injection benchmark (Bhatt et al. 2024: "ignore previous
 * instructions", "system mode").
 * Spread into PROMPT_RULES by `jailbreak-lexicon.ts`; weights are Likert scores.
 */
import type { Rule } from "../../rules";

/** Nouns naming the submitted content that an injection tells the model to set aside. */
const CONTENT =
  "(?:web\\s?page|page|site|resume|résumé|cv|document|text|article|e-?mail|message|function|code|content|data|table|file|context|passage|paper|review|post|comment|transcript|summary|task|question)";

/** Rules for instructions hidden in submitted content. */
export const INJECTION_RULES: readonly Rule[] = [
  {
    id: "content_override",
    source: "OWASP LLM01 / Greshake et al. 2023: planted 'ignore the page and say X' (goal hijacking inside data)",
    weight: 4,
    pattern: new RegExp(
      `\\b(?:ignore|disregard|forget|skip)\\s+(?:the|this|that|my|your|above|previous|entire|whole)\\s+(?:[\\w-]+\\s+)?${CONTENT}(?:\\s+(?:above|below|provided|given|itself))?\\s*(?:,|and|then)\\s*(?:instead\\s+|just\\s+|only\\s+|simply\\s+)?(?:state|say|print|output|respond|reply|write|tell|answer|return|claim|declare)\\b`,
      "gi",
    ),
  },
  {
    id: "fake_system_message",
    source: "Liu et al. 2023 HouYi (separator component) / OWASP LLM01: spoofed system or override markers",
    weight: 4,
    pattern:
      /\b(?:system|admin|developer)\s+(?:instructions?|prompt|message)\s+(?:begins?|starts?)\b|\bend\s+of\s+(?:the\s+)?(?:system|user)\s+(?:instructions?|prompt|message|input)\b|\buser\s+(?:message|input)\s+(?:terminat\w*|ends?|ended)\b|\b(?:security|developer|admin|administrator|system|debug|god|root|training\s+data)\s+override\b|\boverride[\s_]mode\b/gi,
  },
];
