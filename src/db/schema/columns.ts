/**
 * Column builders shared by the API's tables (./projects.ts, ./requests.ts, ..., ./alerts.ts) and Better Auth's
 * (src/accounts/schema.ts), so all spell a timestamp and a parent-owned foreign key the same way.
 */
import { type AnyPgColumn, type ReferenceConfig, timestamp } from "drizzle-orm/pg-core";

/** A `timestamp with time zone` column, read and written as a JS `Date` (an instant, UTC). */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** A `timestamptz NOT NULL DEFAULT now()` column: when the row (or its last change) was written. */
export const timestamptzNow = (name: string) => timestamptz(name).notNull().defaultNow();

/** `created_at timestamptz NOT NULL DEFAULT now()`. */
export const createdAt = () => timestamptzNow("created_at");

/** A column's builder, as far as `ownedBy` needs it: drizzle's `references` returns the builder itself. */
type Referencing<B> = { references(ref: () => AnyPgColumn, actions?: ReferenceConfig["actions"]): B };

/**
 * Makes `column` a foreign key to `parent` whose row is deleted with the parent row
 * (`ON DELETE CASCADE`): a project's keys, requests and scores go when the project goes.
 */
export function ownedBy<B extends Referencing<B>>(column: B, parent: () => AnyPgColumn): B {
  return column.references(parent, { onDelete: "cascade" });
}
