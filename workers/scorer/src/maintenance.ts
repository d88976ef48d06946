/**
 * The scorer's scheduled upkeep besides the sweep: re-scoring (src/rescore/maintain.ts: upgrade
 * re-score, stalled jobs re-sent) and retention (src/retention.ts). Each part logs its own
 * failure and never stops the other.
 */
import { tierRetention } from "../../../src/billing/tiers";
import { createDb } from "../../../src/db/driver/client";
import { logError, logInfo } from "../../../src/logger";
import { maintainRescoring } from "../../../src/rescore/maintain";
import { applyRetention } from "../../../src/retention";
import type { ScorerEnv } from "./env";
import { databaseConfig } from "../../../src/env";

/** One scheduled run of re-scoring upkeep and retention. */
export async function maintain(env: ScorerEnv): Promise<void> {
  const handle = createDb(databaseConfig(env));
  try {
    await maintainRescoring(handle.db, env.SCORING_QUEUE, env).catch((err: unknown) => logError("re-scoring upkeep failed", {}, err));
    const deleted = await applyRetention(handle.db, tierRetention(env.TIER_RETENTION_DAYS)).catch((err: unknown) => {
      logError("retention run failed", {}, err);
      return 0;
    });
    if (deleted > 0) logInfo("retention deleted expired requests", { count: deleted });
  } finally {
    await handle.close().catch(() => {});
  }
}
