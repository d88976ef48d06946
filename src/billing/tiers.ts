/**
 * Subscription tiers: the monthly request limits (docs/interface.md section 8: free 10,000;
 * pro 500,000; team 5,000,000; enterprise unlimited) and how long logged calls are kept
 * (docs/retention.md: free 30 days, pro 365, team 730, enterprise kept until deleted), in one
 * table. Deployments override them with `TIER_LIMITS` and `TIER_RETENTION_DAYS` (JSON objects
 * such as `{"free": 50}`), parsed with the worker's config (src/config/api.ts).
 */
import { type Tier, TIERS } from "../enums";

/** What a tier allows. */
export interface TierTerms {
  /** Requests per period; null means unlimited. */
  requests: number | null;
  /** Days a logged call and its scores are kept (then deleted; hourly rollups stay); null means kept. */
  retention_days: number | null;
}

/** The tier table. */
export const TIER_TABLE: Readonly<Record<Tier, TierTerms>> = {
  free: { requests: 10_000, retention_days: 30 },
  pro: { requests: 500_000, retention_days: 365 },
  team: { requests: 5_000_000, retention_days: 730 },
  enterprise: { requests: null, retention_days: null },
};

/** Monthly request limit per tier; null means unlimited. */
export type TierLimits = Record<Tier, number | null>;

/** Retention per tier in days; null means kept. */
export type TierRetention = Record<Tier, number | null>;

const column = <K extends keyof TierTerms>(key: K) => Object.fromEntries(TIERS.map((t) => [t, TIER_TABLE[t][key]])) as Record<Tier, TierTerms[K]>;

/** Limits of docs/interface.md section 8. */
export const DEFAULT_TIER_LIMITS: TierLimits = column("requests");

/** Retention periods of the tier table. */
export const DEFAULT_TIER_RETENTION: TierRetention = column("retention_days");
