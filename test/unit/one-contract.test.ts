/**
 * Issue 25, "one typed door": the dashboard's shapes are declared once
 * (dashboard/server/contract.ts). This test reads the dashboard's sources and fails on an
 * `interface Project` or `type Project` outside the contract, the old untyped helpers
 * (`callApi`), or a URL door to the dashboard server (`request<T>(url)`, an `/api/...${}`
 * template, `as never`: issue 35.2). That the enums are declared once (src/enums.ts), in the
 * dashboard as in src/ and workers/, is test/unit/architecture/enums-once.test.ts.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const CONTRACT = "dashboard/server/contract.ts";

/** Every .ts/.tsx file under `dir` (no node_modules, no build output). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist") return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("One contract between the API and the dashboard", () => {
  const files = ["dashboard/src", "dashboard/server", "dashboard/functions"].flatMap((d) => sources(join(ROOT, d)));

  it("Should declare the Project type only in the contract, and call the API only through the typed client", () => {
    const offences = files
      .filter((f) => relative(ROOT, f) !== CONTRACT)
      .flatMap((f) => {
        const text = readFileSync(f, "utf8");
        const hits = [/\b(interface|type)\s+Project\b/, /\bcallApi\b/].filter((re) => re.test(text));
        return hits.map((re) => `${relative(ROOT, f)}: ${re.source}`);
      });
    expect(offences).toEqual([]);
  });

  it("Should call the dashboard server only through the typed client (issue 35.2): no URL door, no asserted types", () => {
    // A `request<T>(url)` helper, a fetch of our own /api, a URL template of an /api path, or an `as never`.
    const doors = [/\brequest</, /\bfetch\(\s*["'`]\/api\//, /`\/api\/[^`]*\$\{/, /\bas never\b/];
    const offences = files.flatMap((f) => {
      const text = readFileSync(f, "utf8");
      return doors.filter((re) => re.test(text)).map((re) => `${relative(ROOT, f)}: ${re.source}`);
    });
    expect(offences).toEqual([]);
    // Each rule can fail: it finds its own example.
    const examples = ["request<Policy>(path)", "fetch('/api/projects')", `\`/api/projects/$\{id}\``, "query as never"];
    expect(doors.map((re, i) => re.test(examples[i]!))).toEqual([true, true, true, true]);
  });
});
