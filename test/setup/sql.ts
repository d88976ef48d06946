/**
 * Direct SQL against the test database from inside workerd, for arranging state a test cannot
 * reach through an API (moving a deadline into the past, seeding rows, reading stored rows).
 */
import { env } from "cloudflare:test";
import pg from "pg";
import { workersSocket } from "../../src/db/driver/client";

/** Runs one statement on the test database and returns its rows. */
export async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const url = (env as unknown as { TEST_DATABASE_URL: string }).TEST_DATABASE_URL;
  const client = new pg.Client({ connectionString: url, stream: workersSocket });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}
