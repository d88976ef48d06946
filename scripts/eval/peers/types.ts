/**
 * A peer guardrail library in `npm run eval -- --peers` (scripts/eval/peers/run.ts): an open
 * guardrail package from npm, called through its published API on the text that guardrail
 * would see (views.ts), with its verdict mapped to one of Sightline's scorers.
 */
import type { ScorerName } from "../../../src/enums";

/** The text a guardrail sees of one logged call (views.ts). */
export interface CallViews {
  /** The user's turns, as an input guardrail sees them. */
  prompt: string;
  /** The model's answer, as an output guardrail sees it ("" for prompt-only items). */
  completion: string;
  /** Retrieved documents and tool results in the request ("" when there are none). */
  documents: string;
}

/** One check of a peer: which of its guards it runs, and whether they flag the text. */
export interface PeerCheck {
  /** What is called, e.g. "LLMGuard {jailbreak, promptInjection}". */
  what: string;
  /** True when the guard flags (blocks) `text`, the text it sees of the call (views.ts `viewFor`). */
  flags(text: string): Promise<boolean>;
}

/** A peer library: its checks by the Sightline scorer they stand beside, and what it cannot run here. */
export interface Peer {
  /** npm package name. */
  name: string;
  version: string;
  checks: Partial<Record<ScorerName, PeerCheck>>;
  /** Guards of the package not run here, each with why (model download, hosted API, ...). */
  notRun: string[];
}
