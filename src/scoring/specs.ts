/**
 * The learned scorers' specs and pinned inputs, keyed by name, in SCORER_NAMES order: what the
 * trainer (scripts/train/), the evaluation and the pin test iterate over. Imports no model file,
 * so training works before any exists; the worker never imports it.
 */
import type { LearnedSpec } from "./inference/specs";
import type { Pin } from "./item-call";
import { contentSafetyPins } from "./scorers/content_safety/pins";
import { dataPoisoningPins } from "./scorers/data_poisoning/pins";
import { jailbreakPins } from "./scorers/jailbreak_detection/pins";
import { vectorWeaknessPins } from "./scorers/vector_weakness/pins";
import { contentSafetySpec } from "./scorers/content_safety/spec";
import { dataPoisoningSpec } from "./scorers/data_poisoning/spec";
import { jailbreakSpec } from "./scorers/jailbreak_detection/spec";
import { vectorWeaknessSpec } from "./scorers/vector_weakness/spec";

/** Scorers with a model, in SCORER_NAMES order. */
export const LEARNED_SPECS = {
  content_safety: contentSafetySpec,
  jailbreak_detection: jailbreakSpec,
  data_poisoning: dataPoisoningSpec,
  vector_weakness: vectorWeaknessSpec,
} as const satisfies Record<string, LearnedSpec>;

/** Names of the scorers that have a model. */
export type LearnedName = keyof typeof LEARNED_SPECS;

/** Pinned inputs per learned scorer (each room's `pins.ts`). */
export const PINS: Record<LearnedName, Pin[]> = {
  content_safety: contentSafetyPins,
  jailbreak_detection: jailbreakPins,
  data_poisoning: dataPoisoningPins,
  vector_weakness: vectorWeaknessPins,
};
