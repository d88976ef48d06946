/** Types of `llm_guardrail` (the package ships none), for what llm-guardrail.ts calls; from its README and index.js. */
declare module "llm_guardrail" {
  /** One model's verdict: `detected` when the positive class wins (probability >= 0.5). */
  export interface Verdict {
    allowed: boolean;
    detected: boolean;
    prediction: 0 | 1;
    /** Probability of the positive (threat) class, 0-1. */
    confidence: number;
  }
  export function checkInjection(prompt: string): Promise<Verdict>;
  export function checkJailbreak(prompt: string): Promise<Verdict>;
  export function checkMalicious(prompt: string): Promise<Verdict>;
}
