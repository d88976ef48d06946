/**
 * The data_poisoning scorer: its rules and its model (./weights.json, written by `npm run train`),
 * combined as `learnedScorer` does (../../learned.ts).
 */
import { lazyModel, type ModelFile } from "../../inference/linear";
import { learnedScorer } from "../../learned";
import type { Scorer } from "../../types";
import { dataPoisoningSpec } from "./spec";
import weights from "./weights.json";

/** The model file, for tests and the manifest check. */
export const dataPoisoningModel = weights as ModelFile;

/** data_poisoning, rules and model. */
export const dataPoisoning: Scorer = learnedScorer(dataPoisoningSpec, lazyModel(dataPoisoningModel));
