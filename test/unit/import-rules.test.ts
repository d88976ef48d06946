/**
 * Architecture enforced by import rules (issue 35, points 1 and 7), read with the TypeScript
 * compiler itself: every import of a file (static, `export ... from`, `import type`, dynamic
 * `import()`, `import("...")` types, `require`) is resolved as the compiler resolves it, with the
 * tsconfig that compiles the file, and the resolved file is judged, so no spelling of a path
 * (`../../../src/db/x`, `.ts` suffixes, an index file) slips through a text scan.
 *
 * Rule "one owner per table": no file under `dashboard/` imports the API's data layer
 * (`src/db/`). The dashboard server opens the database for Better Auth's tables only
 * (src/accounts/); projects, memberships as authorisation and the reveal audit are the API's,
 * asked for over /internal (docs/architecture.md, "Who owns which table"). And src/accounts/,
 * what the dashboard imports to open those tables, takes only the driver and the column helpers
 * from src/db/, so the first rule cannot be walked around through it.
 *
 * Rule "the shared core": nothing under `src/` imports a deployable (`workers/`, `dashboard/`);
 * the deployables import the core, never the other way round (issue 35, point 5).
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** One import rule: files matching `from` may not import files matching `to`, except `allow` (each with its reason). */
interface ImportRule {
  name: string;
  from: RegExp;
  to: RegExp;
  allow: Record<string, string>;
}

const RULES: readonly ImportRule[] = [
  {
    name: "one owner per table: dashboard/ does not import src/db/",
    from: /^dashboard\//,
    to: /^src\/db\//,
    allow: {
      // Stands in for the scorer worker, which the browser stack does not run: it stores scores
      // with the scorer's own `saveScores` (src/db/request-scoring.ts), as the worker would.
      "dashboard/test/browser/scores.ts": "test setup in place of the scorer worker",
    },
  },
  {
    // What the dashboard may import of the database, src/accounts/, reaches no further into the
    // API's data layer than the driver and the column helpers: no way around the rule above.
    name: "one owner per table: src/accounts/ uses only the driver and column helpers of src/db/",
    from: /^src\/accounts\//,
    to: /^src\/db\/(?!driver\/client\.ts$|schema\/columns\.ts$)/,
    allow: {},
  },
  {
    // The shared core serves every deployable and depends on none (docs/architecture.md, section 4):
    // what only the API worker runs lives in workers/api/, what only the dashboard runs in dashboard/.
    name: "the shared core: src/ imports nothing from workers/ or dashboard/",
    from: /^src\//,
    to: /^(workers|dashboard)\//,
    allow: {},
  },
];

/** The tsconfig that compiles each part of the scanned folders (its compiler options resolve the imports). */
const TSCONFIGS: readonly [RegExp, string][] = [
  [/^dashboard\/src\//, "dashboard/tsconfig.app.json"],
  [/^dashboard\/test\/browser\//, "dashboard/test/browser/tsconfig.json"],
  [/^dashboard\//, "dashboard/tsconfig.json"],
  [/^src\//, "tsconfig.json"],
];

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

/** Every module specifier `text` imports, in any of the forms the compiler resolves. */
function moduleSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0]!)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) found.push(node.arguments[0]!.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** An import of `file` (repository-relative): its specifier and the repository-relative file it resolves to (null: unresolved). */
interface ResolvedImport {
  specifier: string;
  target: string | null;
}

/** The imports of `file` (repository-relative) with `text`, resolved with `options`. */
function resolvedImports(file: string, text: string, options: ts.CompilerOptions): ResolvedImport[] {
  const path = join(ROOT, file);
  return moduleSpecifiers(path, text).map((specifier) => {
    const resolved = ts.resolveModuleName(specifier, path, options, ts.sys).resolvedModule;
    return { specifier, target: resolved && !resolved.isExternalLibraryImport ? relative(ROOT, resolved.resolvedFileName) : null };
  });
}

/** Every breach of `RULES` by `file` (repository-relative) with `text`, as `file -> target (specifier): rule`. */
function breaches(file: string, text: string, options: ts.CompilerOptions): string[] {
  return RULES.filter((rule) => rule.from.test(file) && !(file in rule.allow)).flatMap((rule) =>
    resolvedImports(file, text, options)
      .filter((i) => i.target !== null && rule.to.test(i.target))
      .map((i) => `${file} -> ${i.target} (${i.specifier}): ${rule.name}`),
  );
}

/** Every TypeScript file under `dir` (repository-relative; no node_modules, no build output). */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist") return [];
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.(ts|tsx|mts|cts)$/.test(name) ? [path] : [];
  });
}

/** A stylesheet, image or font the bundler (Vite) imports: no module the compiler resolves. */
const ASSET = /\.(css|svg|png|jpe?g|gif|webp|ico|woff2?)(\?.*)?$/;

/** The options that compile `file` (repository-relative). */
const optionsFor = (file: string) => compilerOptions(TSCONFIGS.find(([re]) => re.test(file))![1]);

describe("Import rules", () => {
  const files = [...sources("dashboard"), ...sources("src")];

  it("Should catch every form of import of src/db/ from dashboard/, and of a deployable from src/ (the check itself can fail)", () => {
    const file = "dashboard/server/lib/example.ts";
    const text = [
      `import type { Db } from "../../../src/db/driver/client";`,
      `export { createKey } from "../../../src/db/keys.ts";`,
      `const schema = await import("../../../src/db/schema");`,
      `type T = import("../../../src/db/projects").Project;`,
      `import { betterAuthSchema } from "../../../src/accounts/schema";`,
    ].join("\n");
    expect(breaches(file, text, optionsFor(file))).toEqual([
      `${file} -> src/db/driver/client.ts (../../../src/db/driver/client): ${RULES[0]!.name}`,
      `${file} -> src/db/keys.ts (../../../src/db/keys.ts): ${RULES[0]!.name}`,
      `${file} -> src/db/schema/index.ts (../../../src/db/schema): ${RULES[0]!.name}`,
      `${file} -> src/db/projects.ts (../../../src/db/projects): ${RULES[0]!.name}`,
    ]);
    const accounts = "src/accounts/example.ts";
    const reaching = `import { projects } from "../db/schema";\nimport type { Db } from "../db/driver/client";\nimport { ownedBy } from "../db/schema/columns";`;
    expect(breaches(accounts, reaching, optionsFor(accounts))).toEqual([`${accounts} -> src/db/schema/index.ts (../db/schema): ${RULES[1]!.name}`]);
    const core = "src/http/example.ts";
    const upward = `import type { AppBindings } from "../../workers/api/src/env";\nimport { isUuid } from "../util";`;
    expect(breaches(core, upward, optionsFor(core))).toEqual([`${core} -> workers/api/src/env.ts (../../workers/api/src/env): ${RULES[2]!.name}`]);
    // The same imports from the API's own code break no rule.
    expect(breaches("workers/api/src/routes/example.ts", text.replaceAll("../../../src/", "../../../../src/"), optionsFor("dashboard/x.ts"))).toEqual([]);
  });

  it("Should read the whole of dashboard/ and src/ and resolve every relative import", () => {
    expect(files).toEqual(
      expect.arrayContaining([
        "dashboard/server/app.ts",
        "dashboard/src/main.tsx",
        "dashboard/functions/[[path]].ts",
        "dashboard/test/server/helpers.ts",
        "src/http/errors.ts",
      ]),
    );
    const unresolved = files.flatMap((file) =>
      resolvedImports(file, ts.sys.readFile(join(ROOT, file))!, optionsFor(file))
        .filter((i) => i.specifier.startsWith(".") && !ASSET.test(i.specifier) && i.target === null)
        .map((i) => `${file}: ${i.specifier}`),
    );
    expect(unresolved).toEqual([]);
  });

  it("Should find no file breaking an import rule, and no exemption left unused", () => {
    expect(files.flatMap((file) => breaches(file, ts.sys.readFile(join(ROOT, file))!, optionsFor(file)))).toEqual([]);
    for (const rule of RULES) {
      for (const file of Object.keys(rule.allow)) {
        const imports = resolvedImports(file, ts.sys.readFile(join(ROOT, file))!, optionsFor(file));
        expect(
          imports.some((i) => i.target !== null && rule.to.test(i.target)),
          `${file} is exempt from "${rule.name}" but needs no exemption`,
        ).toBe(true);
      }
    }
  });
});
