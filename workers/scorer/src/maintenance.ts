/**
 * The scorer's scheduled upkeep besides the sweep: re-scoring (src/rescore/maintain.ts: upgrade
 * re-score, stalled jobs re-sent) and retention (src/upkeep/retention.ts). Each part logs its own
 * failure and never stops the other.
 */
import { withDb } from "../../../src/db/driver/with-db";
import { logError, logInfo } from "../../../src/logger";
import { maintainRescoring } from "../../../src/rescore/maintain";
import { applyRetention } from "../../../src/upkeep/retention";
import type { ScorerConfig } from "./config";
import { runBodyUpkeep } from "../../../src/upkeep/bodies";

/** One scheduled run of re-scoring upkeep, retention and the body objects' upkeep (unless `BODY_UPKEEP` is "false"). */
export function maintain(config: ScorerConfig): Promise<void> {
  return withDb(config.db, async (db) => {
    await maintainRescoring(db, config.scoringQueue, config.rescore).catch((err: unknown) => logError("re-scoring upkeep failed", {}, err));
    const deleted = await applyRetention(db, config.tierRetention).catch((err: unknown) => {
      logError("retention run failed", {}, err);
      return 0;
    });
    if (deleted > 0) logInfo("retention deleted expired requests", { count: deleted });
    if (config.bodyUpkeep) await runBodyUpkeep(db, config.bodies, config.tierRetention);
  });
}
