/**
 * `store_pii: "mask"` (docs/policy.md): the request and response bodies of a logged call are
 * masked before they are stored, with the same detectors and placeholders as masked exports
 * (src/pii/mask.ts: `[EMAIL]`, `[CREDIT_CARD]`...), sparing the policy's allow list.
 * Used by both ingest paths (POST /internal/log and the proxy's log-records consumer), so the
 * original values never reach the database.
 *
 * Masked bodies hold no personal data for `pii_detection` to find later, so its verdict is taken
 * on the original bodies here and kept in `metadata.pii_masked` (`{score_value, rationale,
 * scorer_version}`: values are never quoted in a rationale); the scorer worker uses it instead of
 * scoring the masked text (src/policy/apply.ts). A caller-sent `pii_masked` is always dropped.
 */
import { maskPiiJson } from "../pii/mask";
import { piiAllowList } from "../pii/detect";
import { scorePii } from "../scoring/scorers/pii_detection/rules";
import type { ScorableCall, ScoreResult } from "../scoring/types";
import { SCORER_VERSIONS } from "../scoring/version";
import type { ProjectPolicy } from "./schema";

/** The metadata key of the ingest-time `pii_detection` verdict of a masked call. */
export const PII_MASKED_KEY = "pii_masked";

/** The `pii_detection` verdict taken before masking. */
export interface MaskedPiiVerdict {
  score_value: ScoreResult["score_value"];
  rationale: string;
  scorer_version: string;
}

/** The fields of a log record that masking reads and rewrites. */
type Maskable = Pick<ScorableCall, "model" | "provider" | "prompt_tokens" | "completion_tokens" | "latency_ms" | "request_body" | "response_body"> & {
  metadata: Record<string, unknown>;
};

/** `metadata` without a caller-sent `pii_masked` (only ingest may write it). Returns the same object when absent. */
export function withoutMaskedVerdict(metadata: Record<string, unknown>): Record<string, unknown> {
  if (!(PII_MASKED_KEY in metadata)) return metadata;
  const { [PII_MASKED_KEY]: _, ...rest } = metadata;
  return rest;
}

/**
 * A copy of `record` with its bodies masked under `policy` (allow list spared) and the
 * `pii_detection` verdict of the original bodies in `metadata.pii_masked`. Other fields unchanged.
 */
export function maskRecord<R extends Maskable>(record: R, policy: ProjectPolicy): R {
  const allow = piiAllowList(policy.scorers.pii_detection.allow);
  const verdict = scorePii({ ...record, cost_usd: null }, allow);
  const masked: MaskedPiiVerdict = { score_value: verdict.score_value, rationale: verdict.rationale, scorer_version: SCORER_VERSIONS.pii_detection };
  return {
    ...record,
    request_body: maskPiiJson(record.request_body, allow),
    response_body: record.response_body === null || record.response_body === undefined ? record.response_body : maskPiiJson(record.response_body, allow),
    metadata: { ...record.metadata, [PII_MASKED_KEY]: masked },
  };
}

/** The verdict `maskRecord` left in a stored call's metadata, if any. */
export function maskedVerdict(metadata: Record<string, unknown> | null | undefined): MaskedPiiVerdict | undefined {
  const v = metadata?.[PII_MASKED_KEY] as Partial<MaskedPiiVerdict> | undefined;
  if (!v || typeof v.rationale !== "string" || typeof v.scorer_version !== "string") return undefined;
  const value = v.score_value;
  if (value !== null && !(typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 5)) return undefined;
  return v as MaskedPiiVerdict;
}
