/**
 * The layout picture of docs/architecture.md (section 4) matches the tree (issue 35, point 5):
 * every path it names exists, and every folder and file at the top of the shared core (`src/`),
 * every deployable under `workers/` and every entry of the API worker's `workers/api/src/` is
 * named in it. The picture is a code block whose rows start with paths at indent 0, 2 or 4; a
 * row's paths are relative to the folder of the row above it with less indent.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** A path-like word: `src/`, `index.ts`, `sdk/js/`, `scorers/<name>/`. */
const PATH_WORD = /^(?:[\w.<>-]+\/)+(?:[\w.<>-]+)?$|^[\w<>-][\w.<>-]*\.\w+$/;

/** The code block of `## 4. Layout of the repository` in `markdown`. */
function layoutBlock(markdown: string): string[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith("4. Layout of the repository"));
  const block = section?.split("```")[1];
  if (block === undefined) throw new Error("architecture.md has no layout picture in section 4");
  return block.split("\n");
}

/**
 * The repository-relative paths a layout picture names (folders end with `/`): the leading
 * path words of each row at indent 0, 2 or 4 (single spaces apart, before the description column), joined to the folder of the nearest row above
 * with less indent. Description lines (deeper indent or starting with a word) name nothing.
 */
function namedPaths(rows: readonly string[]): string[] {
  const parents: { indent: number; dir: string }[] = [];
  const named: string[] = [];
  for (const row of rows) {
    const indent = row.length - row.trimStart().length;
    if (indent > 4 || indent % 2 !== 0 || !row.trim()) continue;
    // The paths end at the first gap of two spaces, where the description column starts.
    const words = row
      .trim()
      .split(/\s{2,}/)[0]!
      .split(" ");
    const leading: string[] = [];
    for (const w of words) {
      if (!PATH_WORD.test(w)) break;
      leading.push(w);
    }
    if (!leading.length) continue;
    while (parents.length && parents[parents.length - 1]!.indent >= indent) parents.pop();
    const base = parents[parents.length - 1]?.dir ?? "";
    for (const w of leading) named.push(base + w);
    const lastDir = [...leading].reverse().find((w) => w.endsWith("/"));
    if (lastDir) parents.push({ indent, dir: base + lastDir });
  }
  return named;
}

const named = namedPaths(layoutBlock(readFileSync(join(ROOT, "docs/architecture.md"), "utf8")));

/** Entries of `dir` as the picture names them: folders with a trailing `/`. */
const entries = (dir: string) => readdirSync(join(ROOT, dir), { withFileTypes: true }).map((e) => `${dir}/${e.name}${e.isDirectory() ? "/" : ""}`);

describe("docs/architecture.md layout picture", () => {
  it("Should read nested rows relative to their folder and skip descriptions", () => {
    const rows = [
      "workers/api/        the API worker",
      "  src/index.ts        entry",
      "  src/routes/         routes: ingest",
      "  ingest/             contract.ts (described, not named)",
      "                      more words src/x.ts",
      "src/                core",
      "  enums.ts util.ts    root files",
      "    scorers/<name>/   rooms",
    ];
    expect(namedPaths(rows)).toEqual([
      "workers/api/",
      "workers/api/src/index.ts",
      "workers/api/src/routes/",
      "workers/api/ingest/",
      "src/",
      "src/enums.ts",
      "src/util.ts",
      "src/scorers/<name>/",
    ]);
  });

  it("Should name only paths that exist", () => {
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((p) => !p.includes("<") && !existsSync(join(ROOT, p)))).toEqual([]);
  });

  it("Should name every folder and file of src/, every worker and every entry of workers/api/src/", () => {
    const expected = [...entries("src"), ...entries("workers").filter((p) => p.endsWith("/")), ...entries("workers/api/src")];
    expect(expected.filter((p) => !named.includes(p))).toEqual([]);
  });

  it("Should keep worker entries out of src/", () => {
    expect(entries("src").filter((p) => /\/(index|app|env)\.ts$/.test(p))).toEqual([]);
    expect(existsSync(join(ROOT, "workers/api/src/index.ts"))).toBe(true);
  });
});
