/**
 * Architecture enforced by import rules over the whole tree (issue 35, points 1 and 7), read with
 * the TypeScript compiler itself: every import of a file (static, `export ... from`, `import type`,
 * dynamic `import()`, `import("...")` types, `require`) is resolved as the compiler resolves it,
 * with the tsconfig that compiles the file, and the resolved file is judged, so no spelling of a
 * path (`../../../src/db/x`, `.ts` suffixes, an index file) slips through a text scan.
 *
 * One table, `RULES`: each rule names the files it judges (`from`, a glob), what they may not
 * import (`forbidden`) or the only files they may import (`allowed`), what they may reach with a
 * type-only import alone (`typeOnly`), its explicit exceptions (each with its reason) and why the
 * rule holds. docs/architecture.md, section 4, lists the same table. Only files of this
 * repository are judged as targets; packages are knip's and package.json's business.
 *
 * Not ruled, on purpose: `scripts/`, `bench/`, `test/` (and the root config files) may import
 * anything: they drive, measure and test the deployables from outside. `dashboard/test/` and
 * `sdk/js/test/` follow only the rules of their folder that say so (no `src/db/` in `dashboard/`).
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { SCORER_NAMES } from "../../src/enums";

const ROOT = resolve(import.meta.dirname, "../..");

/** An edge a rule lets through: importers matching `from` may import files matching `to` (only type-only when `typeOnly`). */
interface Exception {
  from: string;
  to: string;
  typeOnly?: boolean;
  reason: string;
}

/**
 * One import rule. Globs are repository-relative: `*` one path segment's characters, `**` any
 * number of folders, `{a,b}` alternatives; in `forbidden` and `allowed` a later `!glob` takes
 * paths back out of the earlier ones.
 */
interface ImportRule {
  name: string;
  /** The importing files the rule judges (a list when some are taken back out with `!glob`). */
  from: string | readonly string[];
  /** Files they may not import. */
  forbidden?: readonly string[];
  /** The only files of the repository they may import (when given). */
  allowed?: readonly string[];
  /** Files they may import with a type-only import alone (`import type`, `export type`, `import("...")` types). */
  typeOnly?: readonly string[];
  exceptions?: readonly Exception[];
  reason: string;
  /** An import that breaks the rule (so the rule can fail): a file the rule judges (it need not exist) and its text. */
  example: { file: string; text: string };
}

/** A room of src/scoring/scorers/ (files beside the rooms, the manifest, belong to none). */
const room = (name: string) => `src/scoring/scorers/${name}/**`;

/** Declared reads of one scorer room from another (issue 31), each with its reason. */
const ROOM_EDGES: readonly { from: string; to: string; reason: string }[] = [
  {
    from: "vector_weakness",
    to: "jailbreak_detection",
    reason: "documents are judged with the jailbreak prompt lexicon (an instruction planted in a document)",
  },
  { from: "data_poisoning", to: "vector_weakness", reason: "a planted passage that carries an injection also counts as poisoning evidence" },
  { from: "jailbreak_detection", to: "content_safety", reason: "a harmful goal inside a jailbreak frame is named by content_safety's hazard lexicon" },
];

/** The workers: each imports the shared core and its own folder, never another deployable. */
const WORKERS = ["api", "scorer", "proxy"] as const;

/** Who may import what, over the whole tree (docs/architecture.md, section 4, "Import rules", lists the same table). */
const RULES: readonly ImportRule[] = [
  {
    name: "one owner per table: dashboard/ does not import src/db/",
    from: "dashboard/**",
    forbidden: ["src/db/**"],
    reason:
      "the dashboard server opens the database for Better Auth's tables only (src/accounts/); projects, memberships and the reveal audit are the API's, asked for over /internal",
    example: { file: "dashboard/server/lib/example.ts", text: `import type { Db } from "../../../src/db/driver/client";` },
  },
  {
    name: "one owner per table: src/accounts/ uses only the driver and column helpers of src/db/",
    from: "src/accounts/**",
    forbidden: ["src/db/**", "!src/db/driver/client.ts", "!src/db/schema/columns.ts"],
    reason: "what the dashboard imports to open its tables reaches no further into the API's data layer: no way around the rule above",
    example: { file: "src/accounts/example.ts", text: `import { projects } from "../db/schema";` },
  },
  {
    name: "the shared core: src/ imports nothing from workers/ or dashboard/",
    from: "src/**",
    forbidden: ["workers/**", "dashboard/**"],
    reason:
      "the core serves every deployable and depends on none: what only the API worker runs lives in workers/api/, what only the dashboard runs in dashboard/",
    example: { file: "src/http/example.ts", text: `import type { AppBindings } from "../../workers/api/src/env";` },
  },
  {
    name: "src/enums.ts imports nothing",
    from: "src/enums.ts",
    allowed: [],
    reason: "the browser imports it (through dashboard/server/contract.ts): it must bring nothing else into the bundle",
    example: { file: "src/enums.ts", text: `import { isUuid } from "./util";` },
  },
  ...WORKERS.map(
    (worker): ImportRule => ({
      name: `the ${worker} worker imports only src/ and workers/${worker}/`,
      from: `workers/${worker}/**`,
      allowed: [`workers/${worker}/**`, "src/**"],
      reason: "each deployable is built from the shared core and its own folder; what two workers share moves to src/",
      example: { file: `workers/${worker}/src/example.ts`, text: `import { x } from "../../${WORKERS.find((w) => w !== worker)}/src/index";` },
    }),
  ),
  {
    name: "the dashboard server imports only dashboard/server/, dashboard/functions/, src/ and the API's named schemas",
    from: "dashboard/{server,functions}/**",
    allowed: ["dashboard/server/**", "dashboard/functions/**", "src/**"],
    exceptions: [
      {
        from: "dashboard/server/lib/api-client.ts",
        to: "workers/api/src/app.ts",
        typeOnly: true,
        reason: "the API app's type for hc<ApiApp> over the service binding",
      },
      {
        from: "dashboard/server/**",
        to: "workers/api/src/routes/schemas.ts",
        reason: "the API's response schemas the contract derives its types from, and the webhook input it validates with",
      },
      {
        from: "dashboard/server/routes/**",
        to: "workers/api/src/routes/queries.ts",
        reason:
          "the API's own query and input schemas (a module that reads no database, middleware or route code), which the server validates forwarded filters with",
      },
    ],
    reason: "the dashboard server is its own deployable: it borrows the Hono kit of src/http/ and of the API only its app type and schemas",
    example: { file: "dashboard/server/routes/example.ts", text: `import { internal } from "../../../workers/api/src/routes/internal";` },
  },
  {
    name: "the browser imports dashboard/server/ only type-only, and of src/ only src/enums.ts",
    from: "dashboard/src/**",
    allowed: ["dashboard/src/**", "src/enums.ts"],
    typeOnly: ["dashboard/server/**"],
    exceptions: [
      {
        from: "dashboard/src/**",
        to: "dashboard/server/contract.ts",
        reason: "the contract's values are the enums it re-exports from src/enums.ts (its own rule below keeps it so)",
      },
      {
        from: "dashboard/src/lib/auth-client.ts",
        to: "dashboard/server/auth/roles.ts",
        reason: "Better Auth's organization client takes the same access control as the server (its own rule below)",
      },
    ],
    reason: "the browser bundle holds the browser's code and the enums; the server's code reaches it as types",
    example: { file: "dashboard/src/lib/example.ts", text: `import { api } from "../../server/app";\nimport { isUuid } from "../../../src/util";` },
  },
  ...["dashboard/server/contract.ts", "dashboard/server/auth/roles.ts"].map(
    (file): ImportRule => ({
      name: `${file}, which the browser imports, imports values only from src/enums.ts`,
      from: file,
      allowed: ["src/enums.ts"],
      typeOnly: ["**"],
      reason: "what the browser may import of the server brings nothing of the server's code into the bundle",
      example: { file, text: `import { isUuid } from "${file.includes("/auth/") ? "../" : ""}../../src/util";` },
    }),
  ),
  {
    name: "pages are imported only by the routes lists",
    from: "dashboard/src/**",
    forbidden: ["dashboard/src/features/*/{,components/}*Page.tsx"],
    exceptions: [
      { from: "dashboard/src/app/routes.tsx", to: "dashboard/src/features/**", reason: "the router" },
      { from: "dashboard/src/app/project-pages.ts", to: "dashboard/src/features/**", reason: "the project pages the router and the navigation share" },
    ],
    reason: "one page never depends on another (issue 25.8)",
    example: { file: "dashboard/src/features/triage/components/Example.tsx", text: `import { OverviewPage } from "../../overview/components/OverviewPage";` },
  },
  {
    name: "inference reads no scorer room",
    from: "src/scoring/inference/**",
    forbidden: [room("*")],
    reason: "features, linear inference and explanations are the same for every learned scorer",
    example: { file: "src/scoring/inference/example.ts", text: `import { x } from "../scorers/content_safety/rules";` },
  },
  {
    name: "the scoring core reads no scorer room",
    from: ["src/scoring/**", `!${room("*")}`],
    forbidden: [room("*")],
    exceptions: [
      { from: "src/scoring/registry.ts", to: room("*"), reason: "the registry wires the rooms' scorers, specs and judge hooks" },
      { from: "src/scoring/specs.ts", to: room("*"), reason: "the trainer's table of learned specs and pins" },
    ],
    reason: "text extraction, the rules engine and the judge core serve every room",
    example: { file: "src/scoring/example.ts", text: `import { x } from "./scorers/pii_detection/rules";` },
  },
  ...SCORER_NAMES.map(
    (name): ImportRule => ({
      name: `the ${name} room reads other rooms only along declared edges`,
      from: room(name),
      forbidden: [room("*"), `!${room(name)}`],
      exceptions: ROOM_EDGES.filter((e) => e.from === name).map((e) => ({ from: room(e.from), to: room(e.to), reason: e.reason })),
      reason: "a room is one scorer's rules, lexicon, view, spec, pins and weights (issue 31)",
      example: {
        file: `src/scoring/scorers/${name}/example.ts`,
        text: `import { x } from "../${SCORER_NAMES.find((n) => n !== name && !ROOM_EDGES.some((e) => e.from === name && e.to === n))}/rules";`,
      },
    }),
  ),
  ...["sdk", "packages"].map(
    (dir): ImportRule => ({
      name: `${dir}/ imports nothing from src/, workers/ or dashboard/`,
      from: `${dir}/**`,
      forbidden: ["src/**", "workers/**", "dashboard/**"],
      reason: "published or run on their own: they speak to Sightline over its wire format, not through its code",
      example: { file: `${dir}/js/src/example.ts`, text: `import { x } from "../../../src/util.js";` },
    }),
  ),
];

/** A glob of `RULES` as a regular expression over repository-relative paths. */
function globRegExp(glob: string): RegExp {
  const parts: Record<string, string> = { "**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "{": "(?:", "}": ")", ",": "|" };
  const re = glob.replace(/\*\*\/|\*\*|[*{},]|[.+?^$()|[\]\\]/g, (token) => parts[token] ?? `\\${token}`);
  return new RegExp(`^${re}$`);
}

/** True when `path` matches `globs`: the last glob that matches decides (a `!glob` takes a path back out). */
function matches(globs: readonly string[], path: string): boolean {
  let hit = false;
  for (const glob of globs) {
    const negated = glob.startsWith("!");
    if (globRegExp(negated ? glob.slice(1) : glob).test(path)) hit = !negated;
  }
  return hit;
}

/** True when `rule` judges the imports of `file`. */
const judges = (rule: ImportRule, file: string) => matches(typeof rule.from === "string" ? [rule.from] : rule.from, file);

/** The tsconfig that compiles each part of the tree (its compiler options resolve the imports); the first match wins. */
const TSCONFIGS: readonly [string, string][] = [
  ["dashboard/src/**", "dashboard/tsconfig.app.json"],
  ["dashboard/test/browser/**", "dashboard/test/browser/tsconfig.json"],
  ["dashboard/**", "dashboard/tsconfig.json"],
  ["sdk/js/test/**", "sdk/js/test/tsconfig.json"],
  ["sdk/js/**", "sdk/js/tsconfig.json"],
  ["**", "tsconfig.json"],
];

/** The folders read: the whole tree of TypeScript (the rules above say which parts are judged). */
const TREE = ["src", "workers", "dashboard", "sdk", "packages", "scripts", "bench", "test"];

const optionsCache = new Map<string, ts.CompilerOptions>();

/** The compiler options of `tsconfig` (repository-relative). */
function compilerOptions(tsconfig: string): ts.CompilerOptions {
  const known = optionsCache.get(tsconfig);
  if (known) return known;
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, tsconfig), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed) throw new Error(`cannot read ${tsconfig}`);
  optionsCache.set(tsconfig, parsed.options);
  return parsed.options;
}

/** The options that compile `file` (repository-relative). */
const optionsFor = (file: string) => compilerOptions(TSCONFIGS.find(([glob]) => matches([glob], file))![1]);

/** The module an import names (its specifier text) and whether the import brings types alone. */
interface NamedModule {
  text: string;
  typeOnly: boolean;
}

/** True when the named imports or exports `elements` are all marked `type` (and there is at least one). */
const allTypes = (elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>) => elements.length > 0 && elements.every((e) => e.isTypeOnly);

/** Whether import declaration `node` brings types alone: `import type ...`, or `import { type A, type B }`. */
function importIsTypeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import "x"` runs the module
  if (clause.isTypeOnly) return true;
  return !clause.name && !!clause.namedBindings && ts.isNamedImports(clause.namedBindings) && allTypes(clause.namedBindings.elements);
}

/** Every module specifier `text` imports, in any of the forms the compiler resolves. */
function moduleSpecifiers(fileName: string, text: string): NamedModule[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: NamedModule[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ text: node.moduleSpecifier.text, typeOnly: importIsTypeOnly(node) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      found.push({ text: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || (!!clause && ts.isNamedExports(clause) && allTypes(clause.elements)) });
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push({ text: node.moduleReference.expression.text, typeOnly: node.isTypeOnly });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ text: node.argument.literal.text, typeOnly: true });
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0]!)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require"))
        found.push({ text: node.arguments[0]!.text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** An import of a file: its specifier, whether it is type-only, and the repository-relative file it resolves to (null: a package or unresolved). */
interface ResolvedImport {
  specifier: string;
  typeOnly: boolean;
  target: string | null;
}

/** The imports of `file` (repository-relative) with `text`, resolved with the options of the tsconfig that compiles it. */
function resolvedImports(file: string, text: string): ResolvedImport[] {
  const path = join(ROOT, file);
  const options = optionsFor(file);
  return moduleSpecifiers(path, text).map(({ text: specifier, typeOnly }) => {
    const resolved = ts.resolveModuleName(specifier, path, options, ts.sys).resolvedModule;
    return { specifier, typeOnly, target: resolved && !resolved.isExternalLibraryImport ? relative(ROOT, resolved.resolvedFileName) : null };
  });
}

/** True when `rule` forbids `file`'s import `i` before its exceptions are heard. */
function ruleForbids(rule: ImportRule, i: ResolvedImport & { target: string }): boolean {
  if (rule.forbidden && matches(rule.forbidden, i.target)) return true;
  const typeOnlyOk = i.typeOnly && !!rule.typeOnly && matches(rule.typeOnly, i.target);
  if (rule.allowed) return !matches(rule.allowed, i.target) && !typeOnlyOk;
  return !!rule.typeOnly && matches(rule.typeOnly, i.target) && !i.typeOnly;
}

/** The exception of `rule` that lets `file`'s import `i` through, if any. */
const exceptionFor = (rule: ImportRule, file: string, i: ResolvedImport & { target: string }) =>
  rule.exceptions?.find((e) => matches([e.from], file) && matches([e.to], i.target) && (!e.typeOnly || i.typeOnly));

/** The imports of a file that resolve to a file of the repository. */
const local = (imports: readonly ResolvedImport[]) => imports.filter((i): i is ResolvedImport & { target: string } => i.target !== null);

/** Every breach of `RULES` by `file` (repository-relative) with `imports`, as `file -> target (specifier): rule`. */
function breachesOf(file: string, imports: readonly ResolvedImport[]): string[] {
  return RULES.filter((rule) => judges(rule, file)).flatMap((rule) =>
    local(imports)
      .filter((i) => ruleForbids(rule, i) && !exceptionFor(rule, file, i))
      .map((i) => `${file} -> ${i.target} (${i.specifier}): ${rule.name}`),
  );
}

/** Every breach of `RULES` by `file` (repository-relative) with `text`. */
const breaches = (file: string, text: string) => breachesOf(file, resolvedImports(file, text));

/** Every TypeScript file under `dir` (repository-relative; no node_modules, no build output). */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (["node_modules", "dist", ".wrangler"].includes(name)) return [];
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.(ts|tsx|mts|cts)$/.test(name) ? [path] : [];
  });
}

/** A stylesheet, image or font the bundler (Vite) imports: no module the compiler resolves. */
const ASSET = /\.(css|svg|png|jpe?g|gif|webp|ico|woff2?)(\?.*)?$/;

describe("Import rules", { timeout: 60_000 }, () => {
  const files = TREE.flatMap(sources);
  const imports = new Map(files.map((file) => [file, resolvedImports(file, ts.sys.readFile(join(ROOT, file))!)]));

  it("Should resolve every form of import and tell type-only imports from value imports", () => {
    const file = "dashboard/server/lib/example.ts";
    const text = [
      `import type { Db } from "../../../src/db/driver/client";`,
      `export { createKey } from "../../../src/db/keys.ts";`,
      `const schema = await import("../../../src/db/schema");`,
      `type T = import("../../../src/db/projects").Project;`,
      `import { type A, type B } from "../../../src/util";`,
      `import { type C, D } from "../../../src/instant";`,
      `export type { E } from "../contract";`,
      `import "../../../src/logger";`,
    ].join("\n");
    expect(resolvedImports(file, text).map((i) => `${i.target}${i.typeOnly ? " (type)" : ""}`)).toEqual([
      "src/db/driver/client.ts (type)",
      "src/db/keys.ts",
      "src/db/schema/index.ts",
      "src/db/projects.ts (type)",
      "src/util.ts (type)",
      "src/instant.ts",
      "dashboard/server/contract.ts (type)",
      "src/logger.ts",
    ]);
    expect(breaches(file, text).filter((b) => b.endsWith(RULES[0]!.name))).toHaveLength(4);
    // The same imports from the API's own code break no rule.
    expect(breaches("workers/api/src/routes/example.ts", text.replaceAll("../../../src/", "../../../../src/").replace("../contract", "./openapi"))).toEqual([]);
  });

  it("Should match globs as documented", () => {
    expect(matches(["src/db/**", "!src/db/driver/client.ts"], "src/db/driver/client.ts")).toBe(false);
    expect(matches(["src/db/**", "!src/db/driver/client.ts"], "src/db/schema/index.ts")).toBe(true);
    expect(matches([room("*")], "src/scoring/scorers/manifest.json")).toBe(false);
    expect(matches(["dashboard/src/features/*/{,components/}*Page.tsx"], "dashboard/src/features/a/components/APage.tsx")).toBe(true);
    expect(matches(["dashboard/src/features/*/{,components/}*Page.tsx"], "dashboard/src/features/auth/components/AuthPages.tsx")).toBe(false);
  });

  it.each(RULES.map((rule) => [rule.name, rule] as const))("Should break rule %s with its example (the rule can fail)", (_, rule) => {
    const { file, text } = rule.example;
    expect(breaches(file, text).filter((b) => b.endsWith(`: ${rule.name}`)).length, `${file}: ${text}`).toBeGreaterThan(0);
  });

  it("Should read the whole tree and resolve every relative import", () => {
    expect(files).toEqual(
      expect.arrayContaining([
        "dashboard/server/app.ts",
        "dashboard/src/main.tsx",
        "dashboard/functions/[[path]].ts",
        "workers/api/src/index.ts",
        "workers/scorer/src/index.ts",
        "workers/proxy/src/index.ts",
        "src/http/errors.ts",
        "sdk/js/src/index.ts",
        "packages/stripe-stand-in/src/cli.ts",
      ]),
    );
    for (const rule of RULES)
      expect(
        files.some((f) => judges(rule, f)),
        `no file for ${rule.name}`,
      ).toBe(true);
    const unresolved = files.flatMap((file) =>
      imports
        .get(file)!
        .filter((i) => i.specifier.startsWith(".") && !ASSET.test(i.specifier) && i.target === null)
        .map((i) => `${file}: ${i.specifier}`),
    );
    expect(unresolved).toEqual([]);
  });

  it("Should find no file breaking an import rule, and no exception left unused", () => {
    expect(files.flatMap((file) => breachesOf(file, imports.get(file)!))).toEqual([]);
    for (const rule of RULES) {
      for (const exception of rule.exceptions ?? []) {
        const used = files.some(
          (file) => matches([exception.from], file) && local(imports.get(file)!).some((i) => ruleForbids(rule, i) && exceptionFor(rule, file, i) === exception),
        );
        expect(used, `${exception.from} -> ${exception.to} is excepted from "${rule.name}" but needs no exception`).toBe(true);
      }
    }
  });
});
