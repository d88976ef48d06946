/** The 429 of an ingest refused for the project's monthly limit (POST /internal/log, POST /v1/traces). */
import type { Tier } from "../enums";
import { ApiError } from "../http/errors";

/** Where the project's counter stands when a record was refused. */
export interface QuotaRefusal {
  tier: Tier;
  /** The tier's monthly request limit. */
  limit: number;
  /** Requests counted this period. */
  used: number;
  /** When the counter resets. */
  period_reset_at: Date;
}

/** 429 `{detail}` naming the limit and the reset time, with `Retry-After` (seconds, at least 1) until the reset. */
export function overQuota(refusal: QuotaRefusal): ApiError {
  const retryAfter = Math.max(1, Math.ceil((refusal.period_reset_at.getTime() - Date.now()) / 1000));
  return new ApiError(
    429,
    `monthly request limit reached: the ${refusal.tier} tier allows ${refusal.limit} requests per period ` +
      `(${refusal.used} used); the counter resets at ${refusal.period_reset_at.toISOString()}`,
    { "Retry-After": String(retryAfter) },
  );
}
