/**
 * A drizzle handle on the test database from inside workerd (through the Workers socket), for
 * tests that run the scorer worker's code on stored rows: opened in the calling file's
 * `beforeAll`, closed in its `afterAll`. Read `.db` inside tests.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { type Db, workersSocket } from "../../src/db/driver/client";
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
