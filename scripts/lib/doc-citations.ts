/**
 * Checks the repository's citations of its own documents under `docs/` (issue 13, point 4):
 * every cited file exists, and every cited section, decision or anchor is a heading in it.
 *
 * Citations recognised (in code comments, strings and Markdown prose):
 * - `docs/<name>.md` from the repository root, or `../docs/<name>.md` relative to the citing file;
 * - followed by `D<n>` (`docs/decisions.md D8 and D9`): a heading starting with `D<n>`;
 * - followed by `section <n>` / `sections <n>.<m> and <k>`: a heading starting with that number;
 * - followed by `#<anchor>`: a heading whose GitHub slug is the anchor.
 * In Markdown files, link targets (`[text](interface.md#8-limits)`) are resolved relative to the
 * file and checked when they point into `docs/`.
 *
 * It also reports citations of documents that are not in the repository: the design document
 * and the interface specification the code was first written against (`DESIGN.md`,
 * "interface spec"), and, in comments and Markdown, "the spec".
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, resolve } from "node:path";

/** One file to check: its path from the repository root (with `/`) and its text. */
export interface SourceFile {
  path: string;
  text: string;
}

/** Reads a document by its path from the repository root; undefined when it does not exist. */
export type DocReader = (repoPath: string) => string | undefined;

/** Extensions of the files whose citations are checked. */
const CHECKED = /\.(ts|tsx|mts|cts|js|mjs|cjs|py|md|jsonc|json|toml|sql|sh|ya?ml|example)$/;

/**
 * Paths never checked: generated files (wrangler types, the lock file, trained models),
 * vendored copies, recorded fixtures, and this checker and its test, which spell out the
 * patterns they look for.
 */
const SKIPPED = [
  /(^|\/)node_modules\//,
  /(^|\/)worker-configuration\.d\.ts$/,
  /(^|\/)package-lock\.json$/,
  /swagger-ui-dist\//,
  /^src\/scoring\/models\//,
  /(^|\/)fixtures\//,
  /^bench\/results\/.*\.json$/,
  /^migrations\/meta\//,
  /^scripts\/lib\/doc-citations\.ts$/,
  /^test\/unit\/docs\.test\.ts$/,
];

/** Files larger than this (bytes) are not read: no hand-written source is near it. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

/** Citations of documents outside the repository, wherever they appear. */
const FOREIGN_ANYWHERE = [/DESIGN\.md/, /interface[ -]spec|shared\/spec|\bspec,? sections?\s+\d/i];

/** "the spec" as a document, in comments and Markdown only (code may use `spec` as a name). */
const FOREIGN_IN_PROSE = /\bthe spec\b|\bspec's\b|\bspec limits\b/i;

/** A root-relative (or `../`-relative) citation and what follows it. */
const CITATION =
  /(?<![\w./-])((?:\.\.\/)*)docs\/([\w.-]+\.md)(#[\w-]+|,?\s+D\d+(?:(?:\s*,\s*|\s+and\s+|\s+or\s+)D\d+)*|,?\s+sections?\s+\d+(?:\.\d+)*(?:(?:\s*,\s*|\s+and\s+|\s+or\s+)\d+(?:\.\d+)*)*)?/g;

/** A Markdown link or image target: `](target)`. */
const MD_LINK = /\]\(([^)\s]+)\)/g;

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** What a document's headings offer to citations. */
export interface DocIndex {
  /** Leading numbers of headings: `5`, `5.7`. */
  sections: Set<string>;
  /** Decision numbers of headings starting `D<n>`: `D8`. */
  decisions: Set<string>;
  /** GitHub anchors of every heading (duplicates get `-1`, `-2`, as GitHub does). */
  anchors: Set<string>;
}

/** Indexes the headings of a Markdown document (lines inside ``` fences are not headings). */
export function indexDoc(markdown: string): DocIndex {
  const index: DocIndex = { sections: new Set(), decisions: new Set(), anchors: new Set() };
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (!heading) continue;
    const number = /^(\d+(?:\.\d+)*)\.?(\s|$)/.exec(heading)?.[1];
    if (number) index.sections.add(number);
    const decision = /^(D\d+)\b/.exec(heading)?.[1];
    if (decision) index.decisions.add(decision);
    const slug = slugOf(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    index.anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return index;
}

/** True when `line` of `path` is prose: Markdown, or a comment line of a code file. */
function isProse(path: string, line: string): boolean {
  if (path.endsWith(".md")) return true;
  const t = line.trim();
  return /^(\*|\/\*|\/\/|#|<!--)/.test(t) || / \/\/ | # /.test(line);
}

/** What is wrong with one cited target (`docs/x.md` plus its tail), or null when it resolves. */
function problemWith(target: string, tail: string, readDoc: DocReader, cache: Map<string, DocIndex | null>): string | null {
  if (!cache.has(target)) {
    const text = readDoc(target);
    cache.set(target, text === undefined ? null : indexDoc(text));
  }
  const index = cache.get(target);
  if (!index) return `cites ${target}, which is not in the repository`;
  const t = tail.trim();
  if (t.startsWith("#")) {
    const anchor = t.slice(1);
    return index.anchors.has(anchor) ? null : `cites ${target}#${anchor}, which has no such heading`;
  }
  if (/^,?\s*D\d/.test(t)) {
    const missing = [...t.matchAll(/D\d+/g)].map((m) => m[0]).filter((d) => !index.decisions.has(d));
    return missing.length ? `cites ${target} ${missing.join(", ")}, which has no such decision` : null;
  }
  if (/^,?\s*section/.test(t)) {
    const missing = [...t.replace(/^,?\s*sections?/, "").matchAll(/\d+(?:\.\d+)*/g)].map((m) => m[0]).filter((n) => !index.sections.has(n));
    return missing.length ? `cites ${target} section ${missing.join(", ")}, which has no such section` : null;
  }
  return null;
}

/** 1-based line number of character `offset` in `text`. */
const lineAt = (text: string, offset: number) => text.slice(0, offset).split("\n").length;

/**
 * Every problem with the documents `files` cite, as `path:line: message` strings (empty when
 * all citations resolve). `readDoc` reads a cited document by its repository path.
 */
export function checkCitations(files: readonly SourceFile[], readDoc: DocReader): string[] {
  const problems: string[] = [];
  const cache = new Map<string, DocIndex | null>();
  for (const file of files) {
    let text = file.text;
    const dir = dirname(file.path);
    if (file.path.endsWith(".md")) {
      // Link targets resolve relative to the Markdown file; blank them so the prose pass below
      // does not read them a second time as root-relative citations.
      text = text.replace(MD_LINK, (whole, link: string, offset: number) => {
        const m = /^([^#?]+\.md)(#[\w-]+)?$/.exec(link);
        if (m && !/^[a-z]+:/i.test(link)) {
          const target = normalize(join(dir, m[1]!)).replaceAll("\\", "/");
          if (target.startsWith("docs/")) {
            const problem = problemWith(target, m[2] ?? "", readDoc, cache);
            if (problem) problems.push(`${file.path}:${lineAt(file.text, offset)}: ${problem}`);
          }
        }
        return "](" + " ".repeat(whole.length - 3) + ")";
      });
    }
    for (const m of text.matchAll(CITATION)) {
      const up = m[1] ?? "";
      const target = (up ? normalize(join(dir, `${up}docs/${m[2]}`)) : `docs/${m[2]}`).replaceAll("\\", "/");
      const problem = problemWith(target, m[3] ?? "", readDoc, cache);
      if (problem) problems.push(`${file.path}:${lineAt(text, m.index)}: ${problem}`);
    }
    file.text.split("\n").forEach((line, i) => {
      const foreign = FOREIGN_ANYWHERE.map((re) => re.exec(line)).find(Boolean) ?? (isProse(file.path, line) ? FOREIGN_IN_PROSE.exec(line) : null);
      if (foreign) problems.push(`${file.path}:${i + 1}: cites "${foreign[0]}", a document outside the repository: cite docs/ instead`);
    });
  }
  return problems;
}

/**
 * The repository's checked files: tracked and untracked-but-not-ignored (`git ls-files`), with a
 * checked extension, not skipped, at most MAX_FILE_BYTES.
 */
export function repositoryFiles(root: string): SourceFile[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" });
  const paths = [...new Set(listed.split("\0").filter(Boolean))];
  return paths
    .filter((p) => (CHECKED.test(p) || p.startsWith(".ci/")) && !SKIPPED.some((re) => re.test(p)))
    .map((p) => join(root, p))
    .filter((abs) => existsSync(abs) && statSync(abs).isFile() && statSync(abs).size <= MAX_FILE_BYTES)
    .map((abs) => ({ path: relative(root, abs).replaceAll("\\", "/"), text: readFileSync(abs, "utf8") }));
}

/** A DocReader over the working tree at `root`. */
export function fileReader(root: string): DocReader {
  return (repoPath) => {
    const abs = resolve(root, repoPath);
    if (!abs.startsWith(resolve(root)) || !existsSync(abs)) return undefined;
    return readFileSync(abs, "utf8");
  };
}
