/**
 * The version of each scorer, recorded with every score (`safety_scores.scorer_version`,
 * docs/rescoring.md), so a score says which scorer made it and a deployment with new scorers
 * can be recognised (the scorer worker's scheduled handler re-scores recent calls then).
 *
 * - Learned scorers (rules + model, ./learned.ts): `model-` + the first 12 hex digits of the
 *   SHA-256 of the model file, as `npm run train` records it in `models/manifest.json`
 *   (`model_sha256`, the digest of the file's text) when it writes the model: a new model
 *   brings a new version with no code change (test/unit/scorer-version.test.ts checks the
 *   manifest's digests against the files).
 *   Their rules change the scores too: from a revision 2 of a learned scorer's rules on,
 *   `.rules-N` follows the digest (`LEARNED_RULES_REVISIONS`), raised by hand.
 * - Rule scorers: `rules-` + a constant below, raised by hand when their rules change.
 */
import manifest from "./scorers/manifest.json";
import { SCORER_NAMES, type ScorerName } from "../enums";

/** Versions of the rule-only scorers; raise one when its rules change the scores. */
export const RULE_SCORER_VERSIONS = {
  pii_detection: "rules-2",
  unbounded_consumption: "rules-1",
} as const satisfies Partial<Record<ScorerName, string>>;

/**
 * Revisions of the learned scorers' rules (revision 1, no suffix, when absent); raise one when
 * its rules change the scores. content_safety 2: numeric hate codes count only beside a hate signal;
 * 3: explosive-device steps in an answer are delivered harm (`S9:explosive_device`).
 */
export const LEARNED_RULES_REVISIONS: Partial<Record<ScorerName, number>> = { content_safety: 3 };

/** Hex digits of the model digest kept in a version (48 bits: collisions are not a concern). */
const DIGEST_CHARS = 12;

type ManifestModels = Record<string, { model_sha256: string }>;

function versionOf(name: ScorerName): string {
  if (name in RULE_SCORER_VERSIONS) return RULE_SCORER_VERSIONS[name as keyof typeof RULE_SCORER_VERSIONS];
  // A scorer without a manifest entry must not stop the worker from loading; the unit test fails on it.
  const entry = (manifest.models as Partial<ManifestModels>)[name];
  const rules = LEARNED_RULES_REVISIONS[name] ?? 1;
  const suffix = rules > 1 ? `.rules-${rules}` : "";
  return entry ? `model-${entry.model_sha256.slice(0, DIGEST_CHARS)}${suffix}` : "model-unversioned";
}

/** The running version of each of the six scorers, e.g. `{content_safety: "model-9ad8ee1d86f3", pii_detection: "rules-2", ...}`. */
export const SCORER_VERSIONS: Readonly<Record<ScorerName, string>> = Object.fromEntries(SCORER_NAMES.map((n) => [n, versionOf(n)])) as Record<
  ScorerName,
  string
>;
