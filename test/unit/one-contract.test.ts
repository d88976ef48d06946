/**
 * Issue 25, "one typed door": the enums (scorer names, labels, verdicts, tiers, roles, the policy's
 * and the alert webhooks') are declared once (src/enums.ts) and the dashboard's shapes once
 * (dashboard/server/contract.ts). This test
 * reads the dashboard's sources and fails on a second declaration: two or more values of one enum
 * written as a list or union (`"safe", "unsafe"`, `"viewer" | "member"`), an `interface Project`
 * or `type Project` outside the contract, the old untyped helpers (`callApi`), or a URL door to the
 * dashboard server (`request<T>(url)`, an `/api/...${}` template, `as never`: issue 35.2).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ALERT_FORMATS, DELIVERY_STATES, REVIEW_VERDICTS, ROLES, SCORE_LABELS, SCORER_NAMES, STORE_PII_MODES, TIERS } from "../../src/enums";

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

const ENUMS: Record<string, readonly string[]> = { SCORER_NAMES, SCORE_LABELS, REVIEW_VERDICTS, TIERS, ROLES, STORE_PII_MODES, ALERT_FORMATS, DELIVERY_STATES };

/** Places in `text` where two values of one enum stand side by side in a list or union. */
function redeclarations(text: string): string[] {
  const found: string[] = [];
  for (const [name, values] of Object.entries(ENUMS)) {
    const alt = values.join("|");
    const pair = new RegExp(`["'\`](${alt})["'\`]\\s*[,|]\\s*["'\`](${alt})["'\`]`, "g");
    for (const m of text.matchAll(pair)) if (m[1] !== m[2]) found.push(`${name}: ${m[0]}`);
  }
  return found;
}

describe("One contract between the API and the dashboard", () => {
  const files = ["dashboard/src", "dashboard/server", "dashboard/functions"].flatMap((d) => sources(join(ROOT, d)));

  it("Should find a re-declared enum (the check itself can fail)", () => {
    expect(redeclarations(`const ROLES = ["viewer", "member", "admin", "owner"] as const;`)).not.toEqual([]);
    expect(redeclarations(`type L = "safe" | "unsafe";`)).not.toEqual([]);
    expect(redeclarations(`const v = "safe";`)).toEqual([]);
  });

  it("Should not re-declare an enum of src/enums.ts anywhere in dashboard/", () => {
    const offences = files.flatMap((f) => redeclarations(readFileSync(f, "utf8")).map((o) => `${relative(ROOT, f)}: ${o}`));
    expect(offences).toEqual([]);
  });

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
