/**
 * Subscription tiers and their monthly request limits (docs/interface.md section 8):
 * free 10,000; pro 500,000; team 5,000,000; enterprise unlimited (null).
 */
import { z } from "zod";
import { TIERS } from "../db/schema";

/** One of `free`, `pro`, `team`, `enterprise`. */
export type Tier = (typeof TIERS)[number];

/** Monthly request limit per tier; null means unlimited. */
export type TierLimits = Record<Tier, number | null>;

/** Limits of docs/interface.md section 8. */
export const DEFAULT_TIER_LIMITS: TierLimits = {
  free: 10_000,
  pro: 500_000,
  team: 5_000_000,
  enterprise: null,
};

const overridesSchema = z.partialRecord(z.enum(TIERS), z.number().int().nonnegative().nullable());

/**
 * Limits in force: those of docs/interface.md section 8, with the tiers named in `overridesJson` (the `TIER_LIMITS`
 * variable, e.g. `{"free": 50}`) replaced. Used by tests and self-hosted operators.
 * Throws on JSON that is not such an object, so a bad deployment fails loudly.
 */
export function tierLimits(overridesJson: string | undefined): TierLimits {
  if (!overridesJson?.trim()) return DEFAULT_TIER_LIMITS;
  const overrides = overridesSchema.parse(JSON.parse(overridesJson));
  return { ...DEFAULT_TIER_LIMITS, ...overrides };
}
