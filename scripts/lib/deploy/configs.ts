/**
 * The configs a deploy uses: each worker's wrangler.jsonc with the account's Hyperdrive id,
 * the deployment's variables (./deployment.ts) and no local-only settings, written to
 * .wrangler/deploy/<worker>.jsonc (git-ignored): the committed configs keep placeholder ids.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS_DIR } from "../postgres";
import { deployDir, WORKERS, writeGeneratedConfig, type WorkerConfigRef } from "../wrangler-config";

/** Placeholder id of the committed configs (and of a dry run, which creates nothing). */
export const PLACEHOLDER_ID = "00000000000000000000000000000000";

/** Writes the deploy config of each worker into `dir`; returns their paths by worker id. */
export function writeDeployConfigs(opts: {
  dir?: string;
  hyperdriveId: string | null;
  apiVars: Record<string, string>;
}): Record<WorkerConfigRef["id"], string> {
  const dir = opts.dir ?? deployDir();
  const out = {} as Record<WorkerConfigRef["id"], string>;
  for (const w of WORKERS) {
    out[w.id] = writeGeneratedConfig(w.config, join(dir, `${w.id}.jsonc`), (config) => {
      const next = { ...config };
      if (next.hyperdrive)
        next.hyperdrive = next.hyperdrive.map(({ localConnectionString: _local, ...h }) => ({ ...h, id: opts.hyperdriveId ?? PLACEHOLDER_ID }));
      delete next.dev;
      if (w.id === "api") next.vars = { ...next.vars, ...opts.apiVars };
      return next;
    });
  }
  return out;
}

/** Tags of the migrations in migrations/ (drizzle-kit's journal), in the order they apply. */
export function migrationTags(): string[] {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
  return journal.entries.map((e) => e.tag);
}
