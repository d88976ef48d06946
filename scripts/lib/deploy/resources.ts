/**
 * The account resources the worker configs name, and making sure each exists (idempotent:
 * what exists is left alone). Read from the wrangler.jsonc files, so a queue, dead-letter
 * queue or R2 bucket added to a config is created by the next deploy without code changes.
 * Hyperdrive: every `hyperdrive` binding shares one config, named SIGHTLINE_HYPERDRIVE_NAME
 * (default "sightline"), created from DATABASE_URL.
 */
import type { Unstable_RawConfig } from "wrangler";
import { parseBucketNames, parseTable, wranglerOk } from "./wrangler-cli";

/** What the configs need in the account. */
export interface ResourcePlan {
  queues: string[];
  buckets: string[];
  /** Name of the Hyperdrive config, or null when no worker binds one. */
  hyperdrive: string | null;
}

/** The queues (producers, consumers, dead-letter queues), buckets and Hyperdrive the configs name. */
export function planResources(configs: Unstable_RawConfig[], hyperdriveName = process.env.SIGHTLINE_HYPERDRIVE_NAME || "sightline"): ResourcePlan {
  const queues = new Set<string>();
  const buckets = new Set<string>();
  let hyperdrive: string | null = null;
  for (const c of configs) {
    // Kinds this deploy cannot create yet: fail before touching the account rather than deploy
    // a worker whose binding points at nothing.
    const unsupported = (["kv_namespaces", "d1_databases", "vectorize"] as const).filter((k) => ((c[k] as unknown[] | undefined) ?? []).length > 0);
    if (unsupported.length) throw new Error(`${c.name}: npm run deploy does not create ${unsupported.join(", ")} yet (scripts/lib/deploy/resources.ts)`);
    for (const p of c.queues?.producers ?? []) if (p.queue) queues.add(p.queue);
    for (const q of c.queues?.consumers ?? []) {
      queues.add(q.queue);
      if (q.dead_letter_queue) queues.add(q.dead_letter_queue);
    }
    for (const b of c.r2_buckets ?? []) if (b.bucket_name) buckets.add(b.bucket_name);
    if ((c.hyperdrive ?? []).length > 0) hyperdrive = hyperdriveName;
  }
  return { queues: [...queues].sort(), buckets: [...buckets].sort(), hyperdrive };
}

/** What `ensureResources` did. */
export interface ResourceOutcome {
  created: string[];
  existing: string[];
  /** Id of the Hyperdrive config (null when the plan has none). */
  hyperdriveId: string | null;
}

/** Hyperdrive configs by name, from `wrangler hyperdrive list`. */
async function hyperdriveIds(): Promise<Map<string, string>> {
  const rows = parseTable((await wranglerOk(["hyperdrive", "list"])).stdout);
  return new Map(rows.map((r) => [r.name!, r.id!]));
}

/**
 * Creates what `plan` names and the account lacks. `databaseUrl` is needed only when the
 * Hyperdrive config does not exist yet (wrangler takes it as --connection-string).
 */
export async function ensureResources(plan: ResourcePlan, databaseUrl: string | undefined, log: (line: string) => void): Promise<ResourceOutcome> {
  const out: ResourceOutcome = { created: [], existing: [], hyperdriveId: null };
  if (plan.queues.length) {
    const have = new Set(parseTable((await wranglerOk(["queues", "list"])).stdout).map((r) => r.name));
    for (const q of plan.queues) {
      if (have.has(q)) out.existing.push(`queue ${q}`);
      else {
        await wranglerOk(["queues", "create", q]);
        out.created.push(`queue ${q}`);
        log(`  created queue ${q}`);
      }
    }
  }
  if (plan.buckets.length) {
    const have = new Set(parseBucketNames((await wranglerOk(["r2", "bucket", "list"])).stdout));
    for (const b of plan.buckets) {
      if (have.has(b)) out.existing.push(`R2 bucket ${b}`);
      else {
        await wranglerOk(["r2", "bucket", "create", b]);
        out.created.push(`R2 bucket ${b}`);
        log(`  created R2 bucket ${b}`);
      }
    }
  }
  if (plan.hyperdrive) {
    let id = (await hyperdriveIds()).get(plan.hyperdrive);
    if (id) out.existing.push(`Hyperdrive ${plan.hyperdrive}`);
    else {
      if (!databaseUrl) throw new Error(`Hyperdrive config "${plan.hyperdrive}" does not exist yet: set DATABASE_URL to the PostgreSQL it should front`);
      // The URL holds the database password: it goes to wrangler only, never to our output.
      await wranglerOk(["hyperdrive", "create", plan.hyperdrive, `--connection-string=${databaseUrl}`]);
      id = (await hyperdriveIds()).get(plan.hyperdrive);
      if (!id) throw new Error(`wrangler hyperdrive create ${plan.hyperdrive} succeeded but the config is not listed`);
      out.created.push(`Hyperdrive ${plan.hyperdrive}`);
      log(`  created Hyperdrive ${plan.hyperdrive} (${id})`);
    }
    out.hyperdriveId = id;
  }
  return out;
}
