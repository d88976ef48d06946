/**
 * Reads code blocks out of the repository's Markdown, so the tests run exactly what the
 * READMEs tell a user to run and the READMEs cannot drift from what works.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../../scripts/lib/postgres";

/** A fenced code block and the heading of the section it is in. */
export interface CodeBlock {
  lang: string;
  code: string;
  /** Text of the nearest heading above the block, without the leading #s. */
  section: string;
}

/** Every fenced (```) code block of `file` (relative to the repository root), in order. */
export function codeBlocks(file: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let section = "";
  let open: { lang: string; lines: string[] } | undefined;
  for (const line of readFileSync(join(ROOT, file), "utf8").split("\n")) {
    if (open) {
      if (/^```\s*$/.test(line)) {
        blocks.push({ lang: open.lang, code: open.lines.join("\n") + "\n", section });
        open = undefined;
      } else open.lines.push(line);
    } else if (line.startsWith("```")) open = { lang: line.slice(3).trim(), lines: [] };
    else if (/^#{1,6} /.test(line)) section = line.replace(/^#+ /, "").trim();
  }
  return blocks;
}

/**
 * The one code block of `file` in section `section` with language `lang` that contains
 * `contains`; throws (naming the README) when there is none or more than one.
 */
export function codeBlock(file: string, section: string, lang: string, contains = ""): string {
  const found = codeBlocks(file).filter((b) => b.section === section && b.lang === lang && b.code.includes(contains));
  if (found.length !== 1)
    throw new Error(`${file}: expected one \`\`\`${lang} block containing ${JSON.stringify(contains)} under "${section}", found ${found.length}`);
  return found[0]!.code;
}

/** Splits output holding JSON values back to back (e.g. two `curl -s` answers) into values. */
export function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") {
      if (depth++ === 0) start = i;
    } else if ((c === "}" || c === "]") && --depth === 0) values.push(JSON.parse(text.slice(start, i + 1)));
  }
  return values;
}
