/** Barrel of the scoring domain: contract, registry, scorers and text extraction. */
export * from "./types";
export { SCORERS, scoreCall, type NamedScore } from "./registry";
export { extractCall, type ExtractedCall, type GenerationParams } from "./text";
export { contentSafety, scoreContentSafety } from "./content-safety";
export { parseLlamaGuard, mergeJudge, type LlamaGuardVerdict, type RefineWithLlamaGuard } from "./content-safety-judge";
export { piiDetection, scorePii, findPii } from "./pii-detection";
export { jailbreakDetection, scoreJailbreak } from "./jailbreak-detection";
export { dataPoisoning, scoreDataPoisoning } from "./data-poisoning";
export { vectorWeakness, scoreVectorWeakness } from "./vector-weakness";
export { unboundedConsumption, scoreUnboundedConsumption } from "./unbounded-consumption";
