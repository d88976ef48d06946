/**
 * No import cycles in the deployed code (issue 27): the shared core (`src/`), the API, scorer and
 * proxy workers (`workers/`), and the dashboard's browser app (`dashboard/src/`) and server
 * (`dashboard/server/`, `dashboard/functions/`), each resolved with the tsconfig that compiles it.
 * Type-only imports count: a cycle through `import type` still ties the modules together.
 */
import { resolve } from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** One tree to scan: its folder, the tsconfig that compiles it, and a file the scan must reach. */
interface Tree {
  dir: string;
  tsConfig: string;
  mustReach: string;
}

const TREES: readonly Tree[] = [
  { dir: "src", tsConfig: "tsconfig.json", mustReach: "src/ingest/contract.ts" },
  { dir: "workers", tsConfig: "tsconfig.json", mustReach: "workers/api/src/index.ts" },
  { dir: "dashboard/src", tsConfig: "dashboard/tsconfig.app.json", mustReach: "dashboard/src/main.tsx" },
  { dir: "dashboard/server", tsConfig: "dashboard/tsconfig.json", mustReach: "dashboard/server/app.ts" },
  { dir: "dashboard/functions", tsConfig: "dashboard/tsconfig.json", mustReach: "dashboard/functions/[[path]].ts" },
];

/** Files below this count mean the scan did not read the tree (wrong folder or extensions). */
const MIN_FILES = 5;

/** The import graph of `tree`: every file reached (repository-relative) with its imports, and the unresolved imports. */
async function graphOf(tree: Tree): Promise<{ graph: Record<string, string[]>; cycles: string[][]; skipped: string[] }> {
  const result = await madge(resolve(ROOT, tree.dir), {
    baseDir: ROOT,
    fileExtensions: ["ts", "tsx"],
    excludeRegExp: [/\.d\.ts$/],
    tsConfig: resolve(ROOT, tree.tsConfig),
    // Explicit: type-only imports are edges of the graph.
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  });
  return { graph: result.obj(), cycles: result.circular(), skipped: result.warnings().skipped };
}

// Each scan parses a whole tree (madge over TypeScript): about 2-5 s alone, longer on a loaded
// machine, so more than vitest's default 5 s.
describe("Import cycles", { timeout: 60_000 }, () => {
  it.each(TREES)("Should find no circular import in $dir", async (tree) => {
    const { graph, cycles, skipped } = await graphOf(tree);
    // A scan that read nothing, or could not resolve relative imports, would prove nothing.
    expect(Object.keys(graph).length).toBeGreaterThanOrEqual(MIN_FILES);
    expect(Object.keys(graph)).toContain(tree.mustReach);
    expect(skipped.filter((s) => s.startsWith(".") || s.startsWith("/"))).toEqual([]);
    expect(
      cycles.map((cycle) => [...cycle, cycle[0]].join(" > ")),
      `import cycles under ${tree.dir}/`,
    ).toEqual([]);
  });
});
