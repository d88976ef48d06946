/**
 * The `body_objects` table (src/db/schema/bodies.ts): the R2 objects that hold bodies
 * (src/bodies/), registered before they are written, marked referenced by the statement that
 * stores the rows pointing to them, and found again for deletion (src/upkeep/bodies.ts).
 */
import { type SQL, sql } from "drizzle-orm";
import type { TierRetention } from "../billing/tiers";
import { bodyObjectKey, type BodyPlacement } from "../bodies/write";
import type { Db } from "./driver/client";
import { keyMayIngestSql, storedTimeCondition } from "./ingest-record";
import { requestsTimeCondition } from "./request-time";
import { pastRetentionSql } from "../upkeep/retention";

/** Who a record is for once its key is checked: its project and, when that project masks personal data, its policy. */
export interface ResolvedCaller {
  projectId: string;
  /** The stored policy document when its `store_pii` is `mask`; null otherwise. */
  maskPolicy: unknown;
}

/** One record of a batch to resolve: its id, its key hash, whether it has a body too large to stay inline, and its `created_at` when it has one. */
export interface ResolveEntry {
  id: string;
  keyHash: string;
  large: boolean;
  created_at?: Date | undefined;
}

/**
 * Before a batch's bodies are written: resolves each key hash to its project (keys that may
 * ingest only) and mask policy, finds the records already stored (a redelivery: their bodies
 * are not written again), and registers the object `<project_id>/<batchId>` of each project
 * with a fresh large record. One statement.
 */
export async function resolveBatch(
  db: Db,
  batchId: string,
  entries: readonly ResolveEntry[],
): Promise<{ callers: Map<string, ResolvedCaller>; existing: Set<string> }> {
  const input = JSON.stringify(entries.map((e) => ({ id: e.id, key_hash: e.keyHash, large: e.large })));
  const result = (await db.execute(sql`
    WITH input AS (SELECT * FROM jsonb_to_recordset(${input}::jsonb) AS t(id uuid, key_hash text, large boolean)),
    k AS (
      SELECT k.key_hash, k.project_id, p.policy AS mask_policy FROM api_keys k
      LEFT JOIN project_policies p ON p.project_id = k.project_id AND p.policy ->> 'store_pii' = 'mask'
      WHERE k.key_hash IN (SELECT key_hash FROM input) AND ${keyMayIngestSql}
    ),
    existing AS (SELECT id FROM llm_requests WHERE id IN (SELECT id FROM input) AND ${storedTimeCondition(sql`created_at`, entries)}),
    objects AS (
      INSERT INTO body_objects (key, project_id)
      SELECT DISTINCT ${objectKeySql(sql`k.project_id`, batchId)}, k.project_id
      FROM input i JOIN k USING (key_hash) WHERE i.large AND i.id NOT IN (SELECT id FROM existing)
      ON CONFLICT (key) DO NOTHING
      RETURNING key
    )
    SELECT (SELECT coalesce(json_agg(json_build_array(key_hash, project_id, mask_policy)), '[]') FROM k) AS callers,
      (SELECT coalesce(json_agg(id), '[]') FROM existing) AS existing,
      (SELECT count(*) FROM objects) AS objects`)) as unknown as {
    rows: { callers: [string, string, unknown][]; existing: string[] }[];
  };
  const row = result.rows[0]!;
  return {
    callers: new Map(row.callers.map(([keyHash, projectId, maskPolicy]) => [keyHash, { projectId, maskPolicy }])),
    existing: new Set(row.existing),
  };
}

/**
 * Before one record's bodies are written (POST /internal/log): the project of `caller` (SQL
 * answering one `project_id` row, or none for a key that may not ingest) with its mask policy,
 * and its object `<project_id>/<batchId>` registered. Null when the caller has no project.
 */
export async function resolveCaller(db: Db, batchId: string, caller: SQL): Promise<ResolvedCaller | null> {
  const result = (await db.execute(sql`
    WITH caller AS (${caller}),
    objects AS (
      INSERT INTO body_objects (key, project_id) SELECT ${objectKeySql(sql`project_id`, batchId)}, project_id FROM caller
      ON CONFLICT (key) DO NOTHING RETURNING key
    )
    SELECT c.project_id, p.policy AS mask_policy, (SELECT count(*) FROM objects) AS objects
    FROM caller c LEFT JOIN project_policies p ON p.project_id = c.project_id AND p.policy ->> 'store_pii' = 'mask'`)) as unknown as {
    rows: { project_id: string; mask_policy: unknown }[];
  };
  const row = result.rows[0];
  return row ? { projectId: row.project_id, maskPolicy: row.mask_policy } : null;
}

/** SQL for the object key of project `projectId` (a uuid expression) in batch `batchId`: `bodyObjectKey` in SQL. */
function objectKeySql(projectId: SQL, batchId: string): SQL {
  const suffix = bodyObjectKey("", batchId); // "/<batchId>"
  return sql`${projectId}::text || ${suffix}`;
}

/**
 * A CTE body for the ingest statements: marks the objects that the rows of `inserted` (a CTE
 * returning `body_key` and `created_at`) point to as referenced, keeping each one's newest call.
 */
export function referenceBodyObjects(inserted: SQL): SQL {
  return sql`UPDATE body_objects o SET newest_created_at = GREATEST(o.newest_created_at, x.newest)
    FROM (SELECT body_key, max(created_at) AS newest FROM ${inserted} WHERE body_key IS NOT NULL GROUP BY body_key) x
    WHERE o.key = x.body_key`;
}

/** How long an object may stay unreferenced before it is deleted (1 hour): far longer than an ingest batch takes between registering it and storing its rows. */
export const UNREFERENCED_GRACE_SECONDS = 3_600;

/**
 * Up to `limit` objects no stored call points to any more: registered over
 * `UNREFERENCED_GRACE_SECONDS` ago and never referenced (a batch that stored nothing, a failed
 * one, a deleted project's), or whose newest call is past its project's retention (`days`, the
 * tiers' retention) once retention has deleted their rows. `projectIds`: only those projects' objects (an operator, a test).
 */
export async function deletableObjects(db: Db, days: TierRetention, limit: number, projectIds?: readonly string[]): Promise<string[]> {
  const scoped = projectIds ? sql`AND o.project_id = ANY(${uuidArray(projectIds)}::uuid[])` : sql``;
  const result = (await db.execute(sql`
    (SELECT o.key FROM body_objects o
      WHERE o.newest_created_at IS NULL AND o.created_at < now() - make_interval(secs => ${UNREFERENCED_GRACE_SECONDS}) ${scoped}
        AND NOT EXISTS (SELECT 1 FROM llm_requests r WHERE r.body_key = o.key)
      ORDER BY o.created_at LIMIT ${limit})
    UNION ALL
    (SELECT o.key FROM (${pastRetentionSql(days, "body_objects", "key", "newest_created_at", limit, projectIds)}) o
      WHERE NOT EXISTS (SELECT 1 FROM llm_requests r WHERE r.body_key = o.key))`)) as unknown as { rows: { key: string }[] };
  return [...new Set(result.rows.map((r) => r.key))].slice(0, limit);
}

/** Forgets objects deleted from R2 (only those no row points to; a row found pointing keeps its object's entry). */
export async function forgetObjects(db: Db, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.execute(sql`DELETE FROM body_objects o WHERE o.key = ANY(${`{${keys.map((k) => `"${k}"`).join(",")}}`}::text[])
    AND NOT EXISTS (SELECT 1 FROM llm_requests r WHERE r.body_key = o.key)`);
}

/** Marks a deleted project's objects unreferenced, so src/upkeep/bodies.ts deletes them after the grace period. */
export async function releaseProjectObjects(db: Db, projectId: string): Promise<void> {
  await db.execute(sql`UPDATE body_objects SET newest_created_at = NULL WHERE project_id = ${projectId}`);
}

/** A call whose bodies are still inline, as the move to R2 reads it. */
export interface InlineBodiesRow {
  id: string;
  project_id: string;
  /** The call's `created_at` as PostgreSQL's text (its partition key). */
  created_at: string;
  request_body: unknown;
  response_body: unknown;
}

/** A PostgreSQL array literal of uuids. */
const uuidArray = (ids: readonly string[]) => `{${ids.join(",")}}`;

/** The name of the move's cursor in `upkeep_cursors`: one for the whole table, one per scope of projects. */
const moveCursor = (projectIds?: readonly string[]) => (projectIds ? `bodies-to-r2:${[...projectIds].sort().join(",")}` : "bodies-to-r2");

/**
 * The next `limit` calls after the move's cursor (request id order: UUIDv7, so oldest first)
 * whose bodies are all inline, walking the primary key; the id the page ends at (null when no
 * call is left) and how many calls it walked. Rows with a body in R2 are walked, not returned.
 * `projectIds`: only those projects' calls, with a cursor of their own.
 */
export async function inlineBodiesPage(
  db: Db,
  limit: number,
  projectIds?: readonly string[],
): Promise<{ rows: InlineBodiesRow[]; last: string | null; walked: number }> {
  const scoped = projectIds ? sql`AND r.project_id = ANY(${uuidArray(projectIds)}::uuid[])` : sql``;
  const result = (await db.execute(sql`
    WITH cursor AS (SELECT position::uuid AS after FROM upkeep_cursors WHERE name = ${moveCursor(projectIds)}),
    page AS (
      SELECT r.id, r.project_id, r.created_at::text AS created_at, r.body_key, r.request_body, r.response_body FROM llm_requests r
      WHERE r.id > coalesce((SELECT after FROM cursor), '00000000-0000-0000-0000-000000000000'::uuid) ${scoped}
      ORDER BY r.id LIMIT ${limit}
    )
    SELECT id, project_id, created_at, request_body, response_body, body_key IS NULL AS inline FROM page ORDER BY id`)) as unknown as {
    rows: (InlineBodiesRow & { inline: boolean })[];
  };
  return { rows: result.rows.filter((r) => r.inline).map(({ inline: _i, ...r }) => r), last: result.rows.at(-1)?.id ?? null, walked: result.rows.length };
}

/** Registers objects about to be written by the move (like `resolveBatch` does for ingest). */
export async function registerObjects(db: Db, objects: readonly { key: string; projectId: string }[]): Promise<void> {
  if (objects.length === 0) return;
  const values = sql.join(
    objects.map((o) => sql`(${o.key}, ${o.projectId}::uuid)`),
    sql`, `,
  );
  await db.execute(sql`INSERT INTO body_objects (key, project_id) VALUES ${values} ON CONFLICT (key) DO NOTHING`);
}

/**
 * In one statement: points the moved calls at their objects (a call moved meanwhile by another
 * run is left alone), clears the inline copies of the moved bodies, marks the objects referenced
 * and advances the move's cursor (of `projectIds`, or of the whole table) to `last`. The update
 * reads only the moved calls' months (their `created_at`, `requestsTimeCondition`).
 */
export async function pointRowsAtObjects(
  db: Db,
  moved: readonly (BodyPlacement & { id: string; created_at: string })[],
  last: string,
  projectIds?: readonly string[],
): Promise<void> {
  const input = JSON.stringify(moved);
  await db.execute(sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${input}::jsonb) AS t(id uuid, body_key text, request_body_offset int, request_body_length int,
        response_body_offset int, response_body_length int)
    ),
    moved AS (
      UPDATE llm_requests r SET body_key = i.body_key,
        request_body_offset = i.request_body_offset, request_body_length = i.request_body_length,
        response_body_offset = i.response_body_offset, response_body_length = i.response_body_length,
        request_body = CASE WHEN i.request_body_length IS NULL THEN r.request_body END,
        response_body = CASE WHEN i.response_body_length IS NULL THEN r.response_body END
      FROM input i WHERE r.id = i.id AND r.body_key IS NULL AND ${requestsTimeCondition(sql`r.created_at`, moved) ?? sql`true`}
      RETURNING r.body_key, r.created_at
    ),
    referenced AS (${referenceBodyObjects(sql`moved`)})
    INSERT INTO upkeep_cursors (name, position) VALUES (${moveCursor(projectIds)}, ${last})
    ON CONFLICT (name) DO UPDATE SET position = excluded.position, updated_at = now()`);
}
