/**
 * Where the export's time goes, in Node on rows shaped like bench:dashboard's (no database):
 * JSON parsing, PII masking of the bodies and metadata, JSON serialisation, per row.
 * `npx tsx bench/dashboard/export-parts.ts` prints microseconds per row for each part, then the
 * time to mask one 1 MiB string of addresses and one of card numbers (every match is masked,
 * issue 32.2: the time must grow with the bytes, not with the matches squared).
 */
import { maskPiiJson, maskPiiText, memoizedMasker } from "../../src/pii/mask";

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

// The export masks in place (memoizedMasker mutates its argument): each timing parses its own rows.
const texts = rows.map((r) => JSON.stringify(r));
const parsed = () => texts.map((t) => JSON.parse(t) as { metadata: unknown; request_body: unknown; response_body: unknown });

let masked: unknown[] = [];
time("parse + mask (maskPiiJson)", () => {
  masked = parsed().map((r) => [maskPiiJson(r.metadata), maskPiiJson(r.request_body), maskPiiJson(r.response_body)]);
});
time("parse + mask, memoized, in place", () => {
  const mask = memoizedMasker();
  const again = parsed().map((r) => [mask(r.metadata), mask(r.request_body), mask(r.response_body)]);
  if (JSON.stringify(again) !== JSON.stringify(masked)) throw new Error("memoized masking differs");
});
time("JSON.stringify", () => {
  let n = 0;
  for (const m of masked) n += JSON.stringify(m).length;
  if (n < 0) console.log(n);
});
time("JSON.parse (driver side)", () => {
  parsed();
});

/** Masks `text` (warm-up, then timed) and prints MiB/s and the placeholders written. */
function timeText(name: string, text: string, placeholder: string) {
  maskPiiText(text);
  const t0 = performance.now();
  const out = maskPiiText(text);
  const ms = performance.now() - t0;
  const mib = text.length / 2 ** 20;
  console.log(
    `${name.padEnd(28)} ${ms.toFixed(0)} ms for ${mib.toFixed(2)} MiB (${(mib / (ms / 1000)).toFixed(1)} MiB/s), ${out.split(placeholder).length - 1} ${placeholder}`,
  );
}

const MIB = 2 ** 20;
const addresses = Array.from({ length: Math.ceil(MIB / 28) }, (_, i) => `someone.${String(i).padStart(6, "0")}@example.com`).join(", ");
timeText("1 MiB of addresses", addresses, "[EMAIL]");
const cards = Array.from({ length: Math.ceil(MIB / 21) }, () => "4639 6987 0006 2641").join("; ");
timeText("1 MiB of card numbers", cards, "[CREDIT_CARD]");
timeText("4 MiB of addresses", `${addresses}, ${addresses}, ${addresses}, ${addresses}`, "[EMAIL]");
