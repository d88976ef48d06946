import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { checkCitations, fileReader, indexDoc, repositoryFiles, slugOf, type SourceFile } from "../../scripts/lib/doc-citations";

const ROOT = resolve(import.meta.dirname, "../..");

/** A DocReader over in-memory documents. */
const docs = (entries: Record<string, string>) => (path: string) => entries[path];

const DECISIONS = "# Decisions\n\n## D1 Runtime\n\ntext\n\n## D2 Database access: Hyperdrive + pg\n";
const INTERFACE =
  "# Interface\n\n## 4. Endpoints\n\n### 4.2 POST /internal/log\n\n## 5. Authentication\n\n### 5.7 Webhook signature\n\n```\n## 9. not a heading\n```\n";
const fixtureDocs = docs({ "docs/decisions.md": DECISIONS, "docs/interface.md": INTERFACE });
const check = (...files: SourceFile[]) => checkCitations(files, fixtureDocs);

describe("Citations of docs/", () => {
  it("Should find every cited document, section, decision and anchor in the repository", () => {
    const files = repositoryFiles(ROOT);
    // The scan must see the code that cites and the documents cited, or it proves nothing.
    expect(files.map((f) => f.path)).toEqual(expect.arrayContaining(["workers/api/src/routes/ingest.ts", "README.md", "docs/interface.md"]));
    expect(files.filter((f) => /docs\/(decisions|interface)\.md (D|section)/.test(f.text)).length).toBeGreaterThan(20);
    expect(checkCitations(files, fileReader(ROOT))).toEqual([]);
  });

  it("Should keep interface.md numbered 1 to 9, as the code cites it", () => {
    const index = indexDoc(fileReader(ROOT)("docs/interface.md") ?? "");
    for (const n of ["1", "2", "3", "4", "5", "6", "7", "8", "9"]) expect(index.sections).toContain(n);
  });

  it("Should accept citations that resolve", () => {
    expect(
      check({
        path: "src/a.ts",
        text: [
          "/** Keys (docs/interface.md section 5; docs/decisions.md D1 and D2). */",
          "// docs/interface.md sections 4.2 and 5.7, docs/decisions.md#d2-database-access-hyperdrive--pg",
        ].join("\n"),
      }),
    ).toEqual([]);
  });

  it("Should report a cited document that does not exist", () => {
    expect(check({ path: "src/a.ts", text: "// see docs/design.md" })).toEqual(["src/a.ts:1: cites docs/design.md, which is not in the repository"]);
  });

  it("Should report a missing decision, section or anchor, and not take a fenced line for a heading", () => {
    expect(
      check({
        path: "src/a.ts",
        text: "// docs/decisions.md D1 and D7\n// docs/interface.md sections 4.2 and 4.3\n// docs/interface.md section 9\n// docs/interface.md#6-events",
      }),
    ).toEqual([
      "src/a.ts:1: cites docs/decisions.md D7, which has no such decision",
      "src/a.ts:2: cites docs/interface.md section 4.3, which has no such section",
      "src/a.ts:3: cites docs/interface.md section 9, which has no such section",
      "src/a.ts:4: cites docs/interface.md#6-events, which has no such heading",
    ]);
  });

  it("Should resolve Markdown links relative to the file and ignore other folders named docs", () => {
    expect(
      check(
        { path: "docs/architecture.md", text: "See [D2](decisions.md#d2-database-access-hyperdrive--pg) and [x](interface.md#5-authentication)." },
        { path: "sdk/js/README.md", text: "[limits](../../docs/interface.md#8-limits)" },
        { path: "README.md", text: "[vendored](public/docs/README.md), shots in docs/screenshots/a.png" },
      ),
    ).toEqual(["sdk/js/README.md:1: cites docs/interface.md#8-limits, which has no such heading"]);
  });

  it("Should report citations of documents outside the repository", () => {
    expect(
      check(
        { path: "src/a.ts", text: '/** Quota (DESIGN.md, "Quota"). */\n// interface spec, section 8\nconst spec = 1; // fine: a name\n * limits of the spec' },
        { path: "README.md", text: "as the spec says" },
      ).map((p) => p.split(": cites")[0]),
    ).toEqual(["src/a.ts:1", "src/a.ts:2", "src/a.ts:4", "README.md:1"]);
  });

  it("Should make anchors the way GitHub does", () => {
    expect(slugOf("D2 Database access: Hyperdrive + pg by default, Neon serverless")).toBe("d2-database-access-hyperdrive--pg-by-default-neon-serverless");
    expect(slugOf("4.2 POST /internal/log")).toBe("42-post-internallog");
    expect([...indexDoc("## A\n## A\n").anchors]).toEqual(["a", "a-1"]);
  });
});
