/**
 * The content_safety scorer: its rules and its model (./weights.json, written by `npm run train`),
 * combined as `learnedScorer` does (../../learned.ts).
 */
import { lazyModel, type ModelFile } from "../../inference/linear";
import { learnedScorer } from "../../learned";
import type { Scorer } from "../../types";
import { contentSafetySpec } from "./spec";
import weights from "./weights.json";

/** The model file, for tests and the manifest check. */
export const contentSafetyModel = weights as ModelFile;

/** content_safety, rules and model. */
export const contentSafety: Scorer = learnedScorer(contentSafetySpec, lazyModel(contentSafetyModel));
