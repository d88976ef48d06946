/**
 * Vitest global setup of the `workers` project: starts the embedded PostgreSQL used by the
 * tests (fresh database, migrations applied) and the Neon relay, and hands their addresses
 * to the workerd pool through `provide`.
 */
import type { TestProject } from "vitest/node";
import { applyMigrations, ensureDatabase, startEmbeddedPostgres } from "../../scripts/lib/postgres";
import { startNeonRelay } from "./neon-relay";

/** Port of the test PostgreSQL (dev uses 25431, so both can run at once); the data directory
 * is per port, so runs with different ports do not share a cluster. */
export const TEST_PG_PORT = Number(process.env.SIGHTLINE_TEST_PG_PORT ?? 25433);

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    neonWsProxy: string;
  }
}

export default async function setup(project: TestProject) {
  const pg = await startEmbeddedPostgres({ dir: `.data/test-pg-${TEST_PG_PORT}`, port: TEST_PG_PORT, ephemeral: true });
  const url = pg.urlFor("sightline_test");
  await ensureDatabase(pg.serverUrl, "sightline_test", true);
  await applyMigrations(url);
  const relay = await startNeonRelay();
  project.provide("databaseUrl", url);
  project.provide("neonWsProxy", `127.0.0.1:${relay.port}/v1`);
  return async () => {
    await relay.close();
    await pg.stop();
  };
}
