/**
 * Measurement input for docs/sentence-vectors.md (not part of `npm run train`): for
 * content_safety and jailbreak_detection, the items of `../shared/eval/train/<scorer>.jsonl`,
 * `dev/<scorer>.jsonl` and `traffic/train.jsonl` (labelled safe), each reduced to its user turns
 * and its completion (first 400 characters each), and their pooled static vectors per variant
 * (table D x pooling; user and completion vectors side by side).
 *
 * Usage: `npx tsx scripts/train/sentence-vector-export.ts [--table NAME=DIR ...]`; the shipped
 * table is `d96`, others come from `npm run train:tokens -- --dim D --out DIR`. Writes under
 * `.data/sentence-vectors/`: `<scorer>.meta.json` (ids, families, labels, texts) and
 * `<scorer>.<table>.<pooling>.f32` (row-major float32, items x 2 * pooled size), read by
 * `sentence-vector-loso.py`.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createSentenceVectors, POOLINGS, type SentenceVectors, type TokenVectorsFile } from "./sentence-vectors/sentence-vector";
import type { VocabEntry } from "./sentence-vectors/sentence-piece";
import { extractCall } from "../../src/scoring/text";
import { evalDir, readItems, sourceFamily } from "../lib/eval-items";

const ROOT = resolve(import.meta.dirname, "../..");
const OUT = join(ROOT, ".data/sentence-vectors");
const SCORERS = ["content_safety", "jailbreak_detection"] as const;
const CHARS = 400;

function loadTable(dir: string): SentenceVectors {
  const read = (f: string) => JSON.parse(readFileSync(join(dir, f), "utf8"));
  return createSentenceVectors(read("token_vectors.json") as TokenVectorsFile, read("token_vocab.json") as VocabEntry[]);
}

const { values } = parseArgs({ options: { table: { type: "string", multiple: true } } });
const tables: Record<string, SentenceVectors> = { d96: loadTable(join(ROOT, "scripts/train/sentence-vectors")) };
for (const spec of values.table ?? []) {
  const [name, dir] = spec.split("=") as [string, string];
  tables[name] = loadTable(resolve(dir));
}

mkdirSync(OUT, { recursive: true });
const dir = evalDir();
for (const scorer of SCORERS) {
  const items = [
    ...readItems(join(dir, "train", `${scorer}.jsonl`)),
    ...readItems(join(dir, "dev", `${scorer}.jsonl`)),
    ...readItems(join(dir, "traffic", "train.jsonl")),
  ];
  const rows = items.map((item) => {
    const x = extractCall(item.request_body, item.response_body);
    return {
      id: item.id,
      family: sourceFamily(item.id),
      label: item.expected[scorer] === "unsafe" ? 1 : 0,
      user: x.user.join("\n").slice(0, CHARS),
      completion: x.completion.join("\n").slice(0, CHARS),
    };
  });
  writeFileSync(join(OUT, `${scorer}.meta.json`), JSON.stringify(rows));
  for (const [name, table] of Object.entries(tables)) {
    for (const pooling of POOLINGS) {
      const parts = rows.map((r) => [table.pool(table.tokenize(r.user), pooling), table.pool(table.tokenize(r.completion), pooling)]);
      const width = (parts[0]?.[0]?.length ?? 0) * 2;
      const out = new Float32Array(rows.length * width);
      parts.forEach(([u, c], i) => {
        out.set(u as Float32Array, i * width);
        out.set(c as Float32Array, i * width + width / 2);
      });
      writeFileSync(join(OUT, `${scorer}.${name}.${pooling}.f32`), out);
    }
  }
  console.log(`${scorer}: ${rows.length} items, ${rows.filter((r) => r.label).length} unsafe`);
}
