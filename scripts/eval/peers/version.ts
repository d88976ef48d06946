/** The installed version of an npm package (its package.json), for the results' headings. */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** `version` of the installed `pkg`; resolves through its entry point (some packages do not export package.json). */
export function installedVersion(pkg: string): string {
  let dir = dirname(require.resolve(pkg));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version: string };
      if (manifest.name === pkg) return manifest.version;
    } catch {
      // no package.json at this level
    }
    const up = dirname(dir);
    if (up === dir) return "unknown";
    dir = up;
  }
}
