/**
 * Issue 35 point 3, "enums once, everywhere": every closed set of values the API, its database,
 * the workers and the dashboard share (scorer names, score labels, verdicts, tiers, roles, alert
 * event types, delivery states, judge modes, ... every string tuple `src/enums.ts` exports) is
 * declared in src/enums.ts and nowhere else. This test parses each product source file under
 * src/, workers/ and dashboard/ (tests excluded: they may list values to assert on) with the
 * TypeScript compiler API and fails on a second declaration of one of those sets, i.e. two or
 * more members of one set written side by side as
 *
 * - the elements of an array literal (`["pro", "team"] as const`, `z.enum(["safe", "unsafe"])`),
 *   an object element standing for the string of its first property, the key of a row as options
 *   lists and tables are written (`[{ value: "off", label: ... }, { value: "all", label: ... }]`);
 *   an OpenAPI `example` / `examples` value is an example, not a declaration;
 * - the members of a union type (`"viewer" | "member"`);
 * - the keys of an object literal held `as const` (`{ false_positive: "...", confirmed: "..." } as const`,
 *   whose `keyof typeof` declares the set again), unless it `satisfies` a type (a table checked
 *   against the enum: `as const satisfies Partial<Record<ScorerName, string>>`).
 *
 * A subset counts too (`PAID_TIERS` written out instead of derived from `TIERS`): derive it
 * (`Exclude<Tier, "free">`, `TIERS.filter(...)`) or map over the enum. A `Record<Tier, ...>` table
 * is not a declaration: the type checker makes it list every member of the enum.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as enums from "../../../src/enums";

const ROOT = join(import.meta.dirname, "../../..");
const HOME = "src/enums.ts";
const SCANNED = ["src", "workers", "dashboard"];

/** The sets of src/enums.ts: every exported array of two or more strings, by export name. */
const SETS: [string, ReadonlySet<string>][] = Object.entries(enums as Record<string, unknown>)
  .filter((e): e is [string, readonly string[]] => Array.isArray(e[1]) && e[1].length >= 2 && e[1].every((v) => typeof v === "string"))
  .map(([name, values]) => [name, new Set(values)]);

/** Product .ts/.tsx files under `dir`: no node_modules, build output, generated code or tests. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ["node_modules", "dist", "test", "generated", ".wrangler"].includes(entry.name) ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The string a literal node holds, or undefined. */
function literal(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isLiteralTypeNode(node)) return literal(node.literal);
  return undefined;
}

/** The string an array element stands for: itself, or the string value of an object literal's first property (the row's key). */
function elementString(node: ts.Expression): string | undefined {
  if (!ts.isObjectLiteralExpression(node)) return literal(node);
  const first = node.properties[0];
  return first && ts.isPropertyAssignment(first) ? literal(first.initializer) : undefined;
}

/** A property name as written (`a`, `"a"`), or undefined for a computed one. */
function keyName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

/** True when `node` is the operand of `as const` that no `satisfies` checks against a type. */
function heldAsConst(node: ts.Node): boolean {
  let parent = node.parent;
  while (parent && ts.isParenthesizedExpression(parent)) parent = parent.parent;
  const asConst = !!parent && ts.isAsExpression(parent) && ts.isTypeReferenceNode(parent.type) && parent.type.typeName.getText() === "const";
  return asConst && !ts.isSatisfiesExpression(parent!.parent);
}

/** True when array literal `node` is the value of an OpenAPI `example` or `examples` property. */
function isExample(node: ts.ArrayLiteralExpression): boolean {
  const parent = node.parent;
  return ts.isPropertyAssignment(parent) && ["example", "examples"].includes(keyName(parent.name) ?? "");
}

/** A group of values written side by side: the string each element, member or key holds (undefined: none). */
interface Group {
  node: ts.Node;
  items: (string | undefined)[];
}

/** Every array literal, union type and `as const` object literal of `file`. */
function groups(file: ts.SourceFile): Group[] {
  const found: Group[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isArrayLiteralExpression(node) && !isExample(node)) found.push({ node, items: node.elements.map(elementString) });
    else if (ts.isUnionTypeNode(node)) found.push({ node, items: node.types.map(literal) });
    else if (ts.isObjectLiteralExpression(node) && heldAsConst(node))
      found.push({ node, items: node.properties.map((p) => (p.name ? keyName(p.name) : undefined)) });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Each re-declaration in `text` (parsed as `fileName`): `line: SET_NAME (members)`. */
function redeclarations(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const offences: string[] = [];
  for (const { node, items } of groups(file)) {
    for (const [name, members] of SETS) {
      const named = new Set(items.filter((s) => s !== undefined && members.has(s)));
      if (named.size < 2) continue;
      const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      offences.push(`${line}: ${name} (${[...named].join(", ")})`);
    }
  }
  return offences;
}

describe("Enums are declared once, in src/enums.ts", () => {
  it("Should know the sets of src/enums.ts", () => {
    expect(SETS.map(([name]) => name)).toEqual(
      expect.arrayContaining(["SCORER_NAMES", "SCORE_LABELS", "REVIEW_VERDICTS", "TIERS", "ROLES", "ALERT_EVENT_TYPES"]),
    );
  });

  it("Should find a set declared again (the check itself can fail)", () => {
    const cases = [
      `const ROLES = ["viewer", "member", "admin", "owner"] as const;`,
      `export const PAID_TIERS = ["pro", "team", "enterprise"] as const;`,
      `type L = "safe" | "unsafe";`,
      `function f(x: "score.unsafe" | "webhook.test" | undefined) {}`,
      `const OPTIONS = [{ value: "", label: "any" }, { value: "off", label: "Off" }, { value: "all", label: "All" }];`,
      `const V = { to_review: "To review", false_positive: "False positives", confirmed: "Confirmed" } as const;`,
      `const s = z.enum(["content_safety", "pii_detection"]);`,
    ];
    for (const text of cases) expect(redeclarations("case.tsx", text), text).not.toEqual([]);
  });

  it("Should let a set be used without being declared again", () => {
    const cases = [
      `const v = "safe";`,
      `const paid = TIERS.filter((t): t is Exclude<Tier, "free"> => t !== "free");`,
      `const LIMITS: Record<Tier, number> = { free: 1, pro: 2, team: 3, enterprise: 4 };`,
      `const chip: ScoreLabel | "pending" | "false_positive" = "pending";`,
      `const x = [{ value: "unsafe", label: "unsafe" }];`,
      `const ACTIONS = [{ action: "Rotate", role: "member" }, { action: "Revoke", role: "admin" }];`,
      `const VERSIONS = { pii_detection: "rules-2", unbounded_consumption: "rules-1" } as const satisfies Partial<Record<ScorerName, string>>;`,
      `const body = { scorers: z.array(z.enum(SCORER_NAMES)).openapi({ example: ["content_safety", "jailbreak_detection"] }) };`,
      `z.enum(TIERS).exclude(["free"]);`,
    ];
    for (const text of cases) expect(redeclarations("case.tsx", text), text).toEqual([]);
  });

  it("Should declare no set of src/enums.ts anywhere else in src/, workers/ or dashboard/", () => {
    const files = SCANNED.flatMap((dir) => sources(join(ROOT, dir))).filter((f) => relative(ROOT, f) !== HOME);
    expect(files.length).toBeGreaterThan(100);
    const offences = files.flatMap((f) => redeclarations(f, readFileSync(f, "utf8")).map((o) => `${relative(ROOT, f)}:${o}`));
    expect(offences).toEqual([]);
  });
});
