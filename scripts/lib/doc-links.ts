/**
 * Checks the relative links of Markdown documents (issue 27): every link or image target that
 * is not a URL names a file or folder that exists, and a `#anchor` (alone, or after a `.md`
 * target) names a heading of that document, with GitHub's anchors (`indexDoc` of
 * doc-citations.ts). Links inside ``` fences and `inline code` are not links.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize, resolve, sep } from "node:path";
import { indexDoc } from "./doc-citations";

/** One link of a document: its target as written and its 1-based line. */
export interface MarkdownLink {
  target: string;
  line: number;
}

/** Inline links and images `[text](target "title")` / `![alt](<target>)`, and reference definitions `[id]: target`. */
const INLINE = /!?\[[^\]]*\]\(\s*(<[^>]*>|[^)\s]+)[^)]*\)/g;
const REFERENCE = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/;

/** Every link target of `markdown` with its line, outside code fences and inline code spans. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  let fenced = false;
  markdown.split("\n").forEach((raw, i) => {
    if (/^\s*(```|~~~)/.test(raw)) fenced = !fenced;
    if (fenced) return;
    const line = raw.replace(/`[^`]*`/g, "");
    const unwrap = (t: string) => (t.startsWith("<") ? t.slice(1, -1) : t);
    for (const m of line.matchAll(INLINE)) links.push({ target: unwrap(m[1]!), line: i + 1 });
    const ref = REFERENCE.exec(line);
    if (ref) links.push({ target: unwrap(ref[1]!), line: i + 1 });
  });
  return links;
}

/** True for targets that leave the repository: `https:`, `mailto:`, protocol-relative `//host`. */
const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");

/**
 * Every broken relative link of the Markdown file `path` (repository-relative, `/`-separated)
 * under `root`, as `path:line: message` strings; empty when all resolve. Targets resolve
 * relative to the file; `?query` is ignored; percent-escapes are decoded.
 */
export function brokenLinks(root: string, path: string): string[] {
  const abs = resolve(root, path);
  const text = readFileSync(abs, "utf8");
  const problems: string[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    if (!anchorsOf.has(file)) anchorsOf.set(file, indexDoc(readFileSync(file, "utf8")).anchors);
    return anchorsOf.get(file)!;
  };
  for (const { target, line } of markdownLinks(text)) {
    if (isExternal(target)) continue;
    const [pathPart = "", anchor] = decodeURI(target.split("?")[0]!).split("#", 2);
    const file = pathPart === "" ? abs : normalize(join(pathPart.startsWith("/") ? root : dirname(abs), pathPart));
    const at = `${path}:${line}: links to ${target}`;
    if (file !== resolve(root) && !file.startsWith(resolve(root) + sep)) problems.push(`${at}, which is outside the repository`);
    else if (!existsSync(file)) problems.push(`${at}, which does not exist`);
    else if (anchor !== undefined && file.endsWith(".md") && !anchors(file).has(anchor)) problems.push(`${at}, which has no such heading`);
  }
  return problems;
}
