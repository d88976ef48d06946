/**
 * Where the export's time goes, in Node on rows shaped like bench:dashboard's (no database):
 * PII masking of the bodies and metadata, JSON serialisation, CSV serialisation, per row.
 * `npx tsx bench/dashboard/export-parts.ts` prints microseconds per row for each part.
 */
import { maskPiiJson, memoizedMasker } from "../../src/export/mask-pii";

const N = Number(process.env.N ?? 20_000);
const TOPICS = ["invoice", "refund", "shipping", "password", "recipe", "poem", "contract", "travel", "diagnosis", "mortgage", "python", "sql"];
const rows = Array.from({ length: N }, (_, i) => {
  const topic = TOPICS[i % TOPICS.length]!;
  const pii = i % 50 === 0 ? ` My email is user${i}@example.com.` : "";
  // Parsed from JSON text, as the driver hands them over.
  return JSON.parse(
    JSON.stringify({
      metadata: { status: "success" },
      request_body: {
        model: "gpt-4o-mini",
        messages: [
          { role: "system", content: "You are a helpful assistant." },
          { role: "user", content: `Question ${i} about ${topic}.${pii}` },
        ],
      },
      response_body: { choices: [{ message: { role: "assistant", content: `Here is an answer about ${topic} number ${i}.` }, finish_reason: "stop" }] },
    }),
  ) as { metadata: unknown; request_body: unknown; response_body: unknown };
});

function time(name: string, fn: () => void) {
  fn(); // warm-up
  const t0 = performance.now();
  fn();
  const ms = performance.now() - t0;
  console.log(`${name.padEnd(28)} ${((ms * 1000) / N).toFixed(1)} µs/row  (${Math.round(N / (ms / 1000))} rows/s)`);
}

let masked: unknown[] = [];
time("mask (metadata + bodies)", () => {
  masked = rows.map((r) => [maskPiiJson(r.metadata), maskPiiJson(r.request_body), maskPiiJson(r.response_body)]);
});
time("mask, memoized per export", () => {
  const mask = memoizedMasker();
  const again = rows.map((r) => [mask(r.metadata), mask(r.request_body), mask(r.response_body)]);
  if (JSON.stringify(again) !== JSON.stringify(masked)) throw new Error("memoized masking differs");
});
time("JSON.stringify", () => {
  let n = 0;
  for (const m of masked) n += JSON.stringify(m).length;
  if (n < 0) console.log(n);
});
time("JSON.parse (driver side)", () => {
  const texts = rows.map((r) => JSON.stringify(r));
  for (const t of texts) JSON.parse(t);
});
