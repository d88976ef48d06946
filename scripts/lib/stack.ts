/**
 * Brings up the database side of the local stack: the embedded PostgreSQL (or DATABASE_URL),
 * migrations, and on first start a demo project with one API key, in a demo organisation that
 * the first account signing up in the local dashboard adopts (src/accounts/demo.ts).
 */
import { count } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Db } from "../../src/db/driver/client";
import { createDemoOrganization } from "../../src/accounts/demo";
import { createKey } from "../../src/db/keys";
import { createProject } from "../../src/db/projects";
import * as schema from "../../src/db/schema";
import { applyMigrations, ensureDatabase, startEmbeddedPostgres, type LocalPostgres } from "./postgres";

/** Port of the embedded dev database (tests use 25433). */
export const DEV_PG_PORT = Number(process.env.SIGHTLINE_PG_PORT ?? 25431);

/** Data directory of the embedded dev database, relative to the repository root or absolute
 * (`SIGHTLINE_DATA_DIR`; a fresh one gets a new demo project and key). */
export const DEV_DATA_DIR = process.env.SIGHTLINE_DATA_DIR || ".data/pg";

/** A ready database: its URL and how to stop it (a no-op for DATABASE_URL). */
export interface StackDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/** Starts or connects to the database and applies migrations. */
export async function startDatabase(log: (line: string) => void = () => {}): Promise<StackDatabase> {
  if (process.env.DATABASE_URL) {
    await applyMigrations(process.env.DATABASE_URL);
    return { url: process.env.DATABASE_URL, embedded: false, stop: async () => {} };
  }
  const server: LocalPostgres = await startEmbeddedPostgres({ dir: DEV_DATA_DIR, port: DEV_PG_PORT, log });
  await ensureDatabase(server.serverUrl, "sightline");
  const url = server.urlFor("sightline");
  await applyMigrations(url);
  return { url, embedded: true, stop: () => server.stop() };
}

/**
 * On an empty database, creates a "Demo" project in the unclaimed demo organisation and a key;
 * returns them, else null.
 */
export async function seedDemoProject(url: string): Promise<{ projectId: string; key: string } | null> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const db = drizzle({ client: pool, schema }) as unknown as Db;
    const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(schema.projects);
    if (n > 0) return null;
    const project = await createProject(db, "Demo", new Date(), await createDemoOrganization(db));
    const key = (await createKey(db, project.id, "demo"))!; // the project was just created
    return { projectId: project.id, key: key.key };
  } finally {
    await pool.end();
  }
}
