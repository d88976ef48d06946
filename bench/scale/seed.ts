/**
 * Seeding one stage of the scale benchmark into PostgreSQL and local R2: the secondary indexes
 * dropped, the stage's requests COPYed in time order (their large bodies written to R2 one batch
 * ahead of their rows), its scores and `body_objects` rows COPYed, the indexes rebuilt, VACUUM
 * ANALYZE, and the hourly rollups refilled by the migration's backfill function
 * (`sightline_rebuild_rollups()`, src/db/rollups.ts), since COPY bypasses the API's writers.
 * Foreign-key and row triggers are off for the load (`session_replication_role = replica`).
 */
import type pg from "pg";
import { copyInto, secondaryIndexes } from "../lib/seed-rows";
import { REQUEST_COLUMNS, SCORE_COLUMNS, requestRows, scoreRows, type ObjectStats, type StageShape } from "./generate";
import type { R2Seeder } from "./r2-seeder";

/** Seconds each step of a stage's seed took. */
export type SeedSeconds = Record<"requests_copy" | "scores_copy" | "objects_copy" | "indexes" | "vacuum_analyze" | "rollups", number>;

const TABLES = ["llm_requests", "safety_scores"];

/** Seeds `shape`'s calls; returns the step times and what went to R2. */
export async function seedStage(
  client: pg.PoolClient,
  shape: StageShape,
  r2: R2Seeder,
  log: (msg: string) => void,
): Promise<{ seconds: SeedSeconds; objects: ObjectStats }> {
  const seconds = {} as SeedSeconds;
  const timed = async (step: keyof SeedSeconds, run: () => Promise<unknown>) => {
    const t = performance.now();
    await run();
    seconds[step] = (performance.now() - t) / 1000;
    log(`${step}: ${seconds[step].toFixed(1)} s`);
  };
  const dropped = (await Promise.all(TABLES.map((t) => secondaryIndexes(client, t)))).flat();
  for (const ix of dropped) await client.query(`DROP INDEX ${ix.indexname}`);
  await client.query("SET session_replication_role = replica");
  await client.query("SET maintenance_work_mem = '1GB'");
  const objects: ObjectStats = { objects: 0, bytes: 0, members: 0, calls: 0, bodyObjectLines: [] };
  await timed("requests_copy", () =>
    copyInto(
      client,
      "llm_requests",
      REQUEST_COLUMNS,
      requestRows(shape, objects, (o) => r2.put(o)),
    ),
  );
  await timed("scores_copy", () => copyInto(client, "safety_scores", SCORE_COLUMNS, scoreRows(shape)));
  await timed("objects_copy", () => copyInto(client, "body_objects", "key, project_id, created_at, newest_created_at", objects.bodyObjectLines));
  await client.query("SET session_replication_role = DEFAULT");
  await timed("indexes", async () => {
    for (const ix of dropped) await client.query(ix.indexdef);
  });
  await timed("vacuum_analyze", async () => {
    for (const t of [...TABLES, "body_objects"]) await client.query(`VACUUM ANALYZE ${t}`);
  });
  await timed("rollups", async () => {
    await client.query("SELECT sightline_rebuild_rollups()");
    await client.query("VACUUM ANALYZE request_rollups");
    await client.query("VACUUM ANALYZE score_rollups");
  });
  objects.bodyObjectLines = [];
  return { seconds, objects };
}
