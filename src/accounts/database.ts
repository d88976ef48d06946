/**
 * The dashboard server's database handle (issue 35.1, one owner per table): opened per request
 * for Better Auth's tables (./schema.ts) alone, which Better Auth's drizzle adapter and the demo
 * adoption (./demo.ts) write. Projects, organisation links, memberships as authorisation and the
 * reveal audit are the API's, asked for over /internal (dashboard/server/lib/api-client.ts);
 * test/unit/import-rules.test.ts keeps the dashboard from importing the API's data layer (src/db/).
 */
import type { Db } from "../db/driver/client";
import { database } from "../http/database";

/** A drizzle handle used only on Better Auth's tables (the same driver as the API's, src/db/driver/client.ts). */
export type AccountsDb = Db;

/** Sets the request's `c.var.db` (an `AccountsDb`), released after the response (src/http/database.ts). */
export const accountsDatabase = database;
