/**
 * A drizzle handle on the test database from inside workerd (through the Workers socket), for
 * tests that run the scorer worker's code on stored rows: opened in the calling file's
 * `beforeAll`, closed in its `afterAll`. Read `.db` inside tests.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { env } from "cloudflare:test";
import { type Db, workersSocket } from "../../src/db/driver/client";
import { callScores, loadCalls, saveScores } from "../../src/db/request-scoring";
import { scoreCall } from "../../src/policy/apply";
import { testEnv } from "./helpers";

/** Registers the hooks; the returned object's `db` is set once `beforeAll` has run. */
export function useDirectDb(): { db: Db } {
  const handle = {} as { db: Db };
  let pool: pg.Pool | undefined;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: testEnv.TEST_DATABASE_URL, stream: workersSocket, max: 1 });
    handle.db = drizzle({ client: pool }) as unknown as Db;
  });
  afterAll(async () => {
    await pool?.end();
  });
  return handle;
}

/**
 * Scores stored calls `ids` as the scorer worker does (the six scorers under each call's project
 * policy, then its saveScores) through `db`; returns the calls as loaded, bodies read from
 * `env.BODIES`, for a caller that goes on to judge their sessions.
 */
export async function scoreStoredCalls(db: Db, ids: string[]) {
  const calls = await loadCalls(
    db,
    env.BODIES,
    ids.map((id) => ({ id })),
  );
  await saveScores(
    db,
    calls.map((c) => callScores(c, scoreCall(c, c.policy))),
  );
  return calls;
}
