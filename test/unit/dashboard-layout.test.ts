/**
 * Issue 25.8, the dashboard's layout by feature: pages live in their feature's folder
 * (`dashboard/src/features/<feature>/[components/]*Page.tsx`), and the `<select>` element appears
 * only in the one shared `Select` primitive. That no module imports a page except the routes lists
 * (so one page never depends on another) is an import rule of test/unit/import-rules.test.ts.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const SRC = join(ROOT, "dashboard/src");
const SELECT = "dashboard/src/components/ui/select.tsx";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("Dashboard layout by feature", () => {
  const files = sources(SRC).map((path) => ({ path, text: readFileSync(path, "utf8") }));

  it("Should keep every page in its feature's folder", () => {
    const pages = files.map((f) => relative(ROOT, f.path)).filter((p) => /Page\.tsx$/.test(p));
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.filter((p) => !/^dashboard\/src\/features\/[a-z-]+\/(?:components\/)?[A-Za-z]+Page\.tsx$/.test(p))).toEqual([]);
  });

  it("Should render <select> only in the shared Select", () => {
    expect(files.filter((f) => /<select[\s>]/.test(f.text)).map((f) => relative(ROOT, f.path))).toEqual([SELECT]);
  });
});
