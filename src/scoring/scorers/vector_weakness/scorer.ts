/**
 * The vector_weakness scorer: its rules and its model (./weights.json, written by `npm run train`),
 * combined as `learnedScorer` does (../../learned.ts).
 */
import { lazyModel, type ModelFile } from "../../inference/linear";
import { learnedScorer } from "../../learned";
import type { Scorer } from "../../types";
import { vectorWeaknessSpec } from "./spec";
import weights from "./weights.json";

/** The model file, for tests and the manifest check. */
export const vectorWeaknessModel = weights as ModelFile;

/** vector_weakness, rules and model. */
export const vectorWeakness: Scorer = learnedScorer(vectorWeaknessSpec, lazyModel(vectorWeaknessModel));
