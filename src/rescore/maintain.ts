/**
 * Scheduled upkeep of re-scoring (docs/rescoring.md), run by the scorer worker's cron:
 * - re-sends running jobs that stopped moving (a lost message or a restart: the job resumes
 *   from its cursor);
 * - after a deployment that brings new scorer versions (src/scoring/version.ts), re-scores the
 *   calls of the last `RESCORE_UPGRADE_DAYS` days (7 by default) once; `RESCORE_ON_UPGRADE=false`
 *   turns that off. A deployment is recognised by the digest of its versions, stored in
 *   `scorer_deployments` the first time a cron of it runs.
 */
import type { Db } from "../db/driver/client";
import { claimStalledJobs, createUpgradeJobs } from "../db/rescore";
import { scorerDeployments } from "../db/schema";
import { logInfo } from "../logger";
import { SCORER_VERSIONS } from "../scoring/version";
import { toHex } from "../util";
import { enqueueRescores } from "../queues/scoring-jobs";
import { STALLED_AFTER_SECONDS } from "./limits";

/** Days re-scored after an upgrade unless `RESCORE_UPGRADE_DAYS` says otherwise. */
export const DEFAULT_UPGRADE_DAYS = 7;

/** Stalled jobs re-sent per run at most. */
const RESEND_LIMIT = 100;

/** Settings of the upgrade re-score (`RESCORE_ON_UPGRADE`, `RESCORE_UPGRADE_DAYS`; workers/scorer/src/config.ts). */
export interface RescoreSettings {
  /** False turns the upgrade re-score off (default on). */
  onUpgrade?: boolean;
  /** Days before now to re-score after an upgrade (a positive integer; default 7). */
  upgradeDays?: number;
}

/** SHA-256 hex of the running scorer versions (the deployment's identity for re-scoring). */
export async function versionsDigest(): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(SCORER_VERSIONS))));
}

/** Records the running versions; when new (and on), creates the upgrade jobs. Returns their ids. */
export async function rescoreOnUpgrade(db: Db, settings: RescoreSettings): Promise<string[]> {
  const inserted = await db
    .insert(scorerDeployments)
    .values({ digest: await versionsDigest(), versions: SCORER_VERSIONS })
    .onConflictDoNothing()
    .returning({ digest: scorerDeployments.digest });
  if (inserted.length === 0 || settings.onUpgrade === false) return [];
  const ids = await createUpgradeJobs(db, settings.upgradeDays ?? DEFAULT_UPGRADE_DAYS);
  if (ids.length) logInfo("new scorer versions: re-scoring recent calls", { jobs: ids.length });
  return ids;
}

/** One scheduled run: upgrade check, then stalled jobs re-sent. Returns the jobs sent. */
export async function maintainRescoring(db: Db, queue: Queue<unknown>, settings: RescoreSettings): Promise<number> {
  const fresh = await rescoreOnUpgrade(db, settings);
  const stalled = await claimStalledJobs(db, STALLED_AFTER_SECONDS, RESEND_LIMIT);
  const ids = [...new Set([...fresh, ...stalled])];
  await enqueueRescores(queue, ids);
  return ids.length;
}
