/**
 * The README and the documents it leads to (issue 27): every relative link and image in
 * README.md, docs/*.md and the repository's other Markdown files names an existing file, every
 * `#anchor` an existing heading (scripts/lib/doc-links.ts), and README.md stays under 300 lines.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { brokenLinks, markdownLinks } from "../../scripts/lib/doc-links";

const ROOT = resolve(import.meta.dirname, "../..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** Tracked and untracked-but-not-ignored Markdown files, repository-relative. */
const markdownFiles = () =>
  execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.md"], { cwd: ROOT, encoding: "utf8" }).split("\n").filter(Boolean);

describe("README.md", () => {
  it("Should link only to files and headings that exist, docs/ and bench/results/ included", () => {
    const targets = markdownLinks(README).map((l) => l.target);
    // The README's links into docs/ and bench/results/ are what this check is for: it must see them.
    expect(targets.filter((t) => t.startsWith("docs/")).length).toBeGreaterThan(10);
    expect(targets.filter((t) => t.startsWith("bench/results/")).length).toBeGreaterThan(5);
    expect(brokenLinks(ROOT, "README.md")).toEqual([]);
  });

  it("Should stay under 300 lines", () => {
    expect(README.split("\n").length).toBeLessThan(300);
  });
});

describe("Relative links in Markdown", () => {
  it("Should resolve in docs/*.md and every other Markdown file of the repository", () => {
    const files = markdownFiles();
    expect(files).toEqual(expect.arrayContaining(["README.md", "docs/architecture.md", "docs/interface.md"]));
    expect(files.flatMap((path) => brokenLinks(ROOT, path))).toEqual([]);
  });

  it("Should report a missing file, a missing heading and a link leaving the repository, and skip code and URLs", () => {
    const root = mkdtempSync(join(tmpdir(), "doc-links-"));
    mkdirSync(join(root, "notes"));
    writeFileSync(join(root, "notes/a.md"), "# A\n\n## Limits and quotas\n");
    writeFileSync(join(root, "shot.png"), "");
    writeFileSync(
      join(root, "README.md"),
      [
        "# Title",
        '[ok](notes/a.md#limits-and-quotas) ![ok](shot.png) [ok](#title) [ok](<notes/a.md> "A") [ok](https://example.com/x.md)',
        "[gone](notes/b.md) ![gone](notes/shot.png)",
        "[bad anchor](notes/a.md#limits) [bad self](#nothing)",
        "[out](../elsewhere.md)",
        "`[code](nowhere.md)`",
        "```",
        "[fenced](nowhere.md)",
        "```",
        "[ref]: notes/missing.md",
      ].join("\n"),
    );
    expect(brokenLinks(root, "README.md")).toEqual([
      "README.md:3: links to notes/b.md, which does not exist",
      "README.md:3: links to notes/shot.png, which does not exist",
      "README.md:4: links to notes/a.md#limits, which has no such heading",
      "README.md:4: links to #nothing, which has no such heading",
      "README.md:5: links to ../elsewhere.md, which is outside the repository",
      "README.md:10: links to notes/missing.md, which does not exist",
    ]);
  });
});
