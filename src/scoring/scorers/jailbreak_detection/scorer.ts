/**
 * The jailbreak_detection scorer: its rules and its model (./weights.json, written by `npm run train`),
 * combined as `learnedScorer` does (../../learned.ts).
 */
import { lazyModel, type ModelFile } from "../../inference/linear";
import { learnedScorer } from "../../learned";
import type { Scorer } from "../../types";
import { jailbreakSpec } from "./spec";
import weights from "./weights.json";

/** The model file, for tests and the manifest check. */
export const jailbreakDetectionModel = weights as ModelFile;

/** jailbreak_detection, rules and model. */
export const jailbreakDetection: Scorer = learnedScorer(jailbreakSpec, lazyModel(jailbreakDetectionModel));
