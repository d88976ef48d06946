import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitItems } from "../../../scripts/lib/eval-items";
import { ENDORSEMENT, HAZARD_RULES, NONSENSE, SAFE_CONTEXT, SAFE_HOMONYMS } from "../../../src/scoring/scorers/content_safety/lexicon";
import { INJECTION_RULES } from "../../../src/scoring/scorers/jailbreak_detection/injection";
import { COMPLETION_RULES, PROMPT_RULES } from "../../../src/scoring/scorers/jailbreak_detection/lexicon";
import { PII_DETECTORS } from "../../../src/pii/patterns";
import { mayMatch, requiredLiterals } from "../../../src/scoring/prefilter";
import { extractCall } from "../../../src/scoring/text";
import { SCORER_NAMES } from "../../../src/enums";
import { DOCUMENT_RULES } from "../../../src/scoring/scorers/vector_weakness/rules";

function matches(re: RegExp, text: string): boolean {
  re.lastIndex = 0;
  const hit = re.test(text);
  re.lastIndex = 0;
  return hit;
}

/** Whether a PII detector's pattern matches somewhere its validator accepts (context aside). */
function detects(d: (typeof PII_DETECTORS)[number], text: string): boolean {
  const re = new RegExp(d.pattern.source, d.pattern.flags.includes("g") ? d.pattern.flags : `${d.pattern.flags}g`);
  for (const m of text.matchAll(re)) if (!d.validate || d.validate(m, text.slice(Math.max(0, m.index - 48), m.index))) return true;
  return false;
}

/** Every pattern of the scorers' rule tables: the gate the scorers check, and what it must never hide. */
const PATTERNS: Array<{ name: string; gate: RegExp; hit: (text: string) => boolean }> = [
  ...[...HAZARD_RULES, ...PROMPT_RULES, ...COMPLETION_RULES, ...INJECTION_RULES, ...DOCUMENT_RULES].map((r) => ({
    name: r.id,
    gate: r.pattern,
    hit: (t: string) => matches(r.pattern, t),
  })),
  ...PII_DETECTORS.map((d) => ({ name: d.id, gate: d.gate ?? d.pattern, hit: (t: string) => (d.gate ? detects(d, t) : matches(d.pattern, t)) })),
  ...[ENDORSEMENT, NONSENSE, SAFE_CONTEXT, ...SAFE_HOMONYMS].map((p) => ({ name: p.source.slice(0, 30), gate: p, hit: (t: string) => matches(p, t) })),
];

describe("prefilter: required literals", () => {
  it("Should derive the literals every match contains, folded to lower case", () => {
    expect(requiredLiterals(/\b(?:kill|murder)\s+you\b/i)?.sort()).toEqual(["kill", "murder"]);
    expect(requiredLiterals(/colou?r/)?.sort()).toEqual(["color", "colour"]);
    expect(requiredLiterals(/[Rr]ue \d+/)).toEqual(["rue "]);
    expect(requiredLiterals(/ignore (?:all )?previous/i)?.sort()).toEqual(["ignore all previous", "ignore previous"]);
    // The longest run wins over a shorter one elsewhere in the sequence.
    expect(requiredLiterals(/ab\s+system prompt/)).toEqual(["system prompt"]);
    // Runs around a non-ASCII character of a case-insensitive pattern are kept apart.
    expect(requiredLiterals(/vägen/iu)).toEqual(["gen"]);
  });

  it("Should have no gate for patterns that may match any text", () => {
    expect(requiredLiterals(/\d+/)).toBeNull();
    expect(requiredLiterals(/a?b*/)).toBeNull();
    expect(requiredLiterals(/(\w)\1/)).toBeNull();
    expect(requiredLiterals(/secret|\w+/)).toBeNull(); // one alternative has no literal
    expect(requiredLiterals(/secret|\w+@/)?.sort()).toEqual(["@", "secret"]);
    expect(requiredLiterals(/(?i:abc)/)).toBeNull(); // an inline modifier changes case rules inside
  });
});

describe("prefilter: the gate never hides a match", () => {
  it("Should rule a text out only when the pattern does not match it (random texts near the literals)", () => {
    // Texts assembled from the patterns' own literals in mixed case, with separators, digits and
    // the two non-ASCII characters that case-fold to ASCII (KELVIN SIGN, LONG S).
    const pieces = [...new Set(PATTERNS.flatMap((p) => requiredLiterals(p.gate) ?? []))];
    const piece = fc.oneof(
      fc.constantFrom(...pieces),
      fc.constantFrom(...pieces).map((s) => s.toUpperCase()),
      fc.constantFrom(" ", "  ", "\n", ".", ", ", "-", "'", "0", "42", "\u212a", "\u017f", "Ä", "ß"),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.integer({ min: 0, max: PATTERNS.length - 1 }), (parts, i) => {
        const text = parts.join(" ");
        const p = PATTERNS[i]!;
        if (p.hit(text)) expect(mayMatch(p.gate, text), p.name).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it("Should never rule out a text of the evaluation corpus that a pattern matches", () => {
    const texts = (["train", "dev"] as const).flatMap((split) =>
      SCORER_NAMES.flatMap((scorer) =>
        splitItems(split, scorer).flatMap((item) => {
          const x = extractCall(item.request_body, item.response_body);
          return [...x.system, ...x.user, ...x.documents, ...x.history, ...x.completion];
        }),
      ),
    );
    expect(texts.length).toBeGreaterThan(10_000);
    let matched = 0;
    let skipped = 0;
    for (const t of texts) {
      for (const p of PATTERNS) {
        const open = mayMatch(p.gate, t);
        if (!open) skipped++;
        if (!p.hit(t)) continue;
        matched++;
        expect(open, `${p.name} matched a text its gate rules out`).toBe(true);
      }
    }
    console.log(
      `prefilter corpus: ${texts.length} texts x ${PATTERNS.length} patterns, ${matched} matches, ${((100 * skipped) / (texts.length * PATTERNS.length)).toFixed(1)}% of pairs ruled out`,
    );
    expect(matched).toBeGreaterThan(5_000);
    // The gates do their job: most (pattern, text) pairs are ruled out without a scan.
    expect(skipped / (texts.length * PATTERNS.length)).toBeGreaterThan(0.5);
  }, 300_000);
});
