/**
 * Issue 25.8, the dashboard's layout by feature: pages live in their feature's folder
 * (`dashboard/src/features/<feature>/[components/]*Page.tsx`), and no module imports a page except
 * the routes lists (`dashboard/src/app/routes.tsx`, and `dashboard/src/app/project-pages.ts` for
 * the project pages the router and the navigation share), so one page never depends on another; the
 * `<select>` element appears only in the one shared `Select` primitive.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const SRC = join(ROOT, "dashboard/src");
const ROUTE_LISTS = ["dashboard/src/app/routes.tsx", "dashboard/src/app/project-pages.ts"];
const SELECT = "dashboard/src/components/ui/select.tsx";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Relative imports of `text` (static and dynamic) resolved against `file`'s folder, without extension. */
function imports(file: string, text: string): string[] {
  return [...text.matchAll(/(?:from\s+|import\()\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => resolve(dirname(file), m[1]!));
}

/** Modules importing a page module (a `*Page.tsx` under features), other than the routes lists. */
function pageImports(files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) =>
    ROUTE_LISTS.includes(relative(ROOT, path))
      ? []
      : imports(path, text)
          .filter((target) => /\/features\/[^/]+\/(?:components\/)?[A-Za-z]+Page$/.test(target))
          .map((target) => `${relative(ROOT, path)} imports ${relative(ROOT, target)}`),
  );
}

describe("Dashboard layout by feature", () => {
  const files = sources(SRC).map((path) => ({ path, text: readFileSync(path, "utf8") }));

  it("Should find a page importing a page (the check itself can fail)", () => {
    const a = join(SRC, "features/triage/components/TriagePage.tsx");
    expect(pageImports([{ path: a, text: `import { x } from "../../overview/components/OverviewPage";` }])).toHaveLength(1);
    expect(pageImports([{ path: a, text: `import { x } from "../../overview/hooks";` }])).toEqual([]);
  });

  it("Should keep every page in its feature's folder", () => {
    const pages = files.map((f) => relative(ROOT, f.path)).filter((p) => /Page\.tsx$/.test(p));
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.filter((p) => !/^dashboard\/src\/features\/[a-z-]+\/(?:components\/)?[A-Za-z]+Page\.tsx$/.test(p))).toEqual([]);
  });

  it("Should import pages only from the routes lists", () => {
    expect(pageImports(files)).toEqual([]);
  });

  it("Should render <select> only in the shared Select", () => {
    expect(files.filter((f) => /<select[\s>]/.test(f.text)).map((f) => relative(ROOT, f.path))).toEqual([SELECT]);
  });
});
