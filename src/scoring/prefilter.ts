/**
 * Literal prefilters for rule patterns: before a regular expression scans a text, a few hash
 * lookups tell whether the text can hold a match at all. Most rules cannot match most texts,
 * and the scan (about 2.5 ns per byte per pattern in V8's irregexp, bench/results/scorers.md) is
 * where the scorers' CPU goes; a rejected text costs a handful of lookups instead.
 *
 * A pattern's gate is derived from its syntax tree (parsed by @eslint-community/regexpp): a set
 * of literal strings such that every match contains at least one of them, the "required
 * literals" of RE2's prefilter (Russ Cox, "Regular Expression Matching with a Trigram Index",
 * 2012, https://swtch.com/~rsc/regexp/regexp4.html). A text passes when, for some literal, each
 * of the literal's character trigrams occurs in the text (a necessary condition for containing
 * it, checked against a bitset of the text's hashed trigrams built once per text), or when a
 * literal shorter than three characters occurs in it. Characters are folded on both sides (ASCII
 * letters to lower case, KELVIN SIGN to k, LONG S to s: the only non-ASCII characters that
 * case-fold to ASCII under /iu), so case-insensitive patterns keep their gates; a non-ASCII
 * character of a case-insensitive pattern counts as unknown. A pattern whose matches may be any
 * text (an optional or class-only pattern) has no gate and always passes.
 *
 * The gate only ever answers "cannot match" when the pattern would find nothing, so results
 * are identical with and without it (test/unit/scoring/prefilter.test.ts checks that over the
 * evaluation corpus and random strings).
 */
import { parseRegExpLiteral, type AST } from "@eslint-community/regexpp";

/** Largest literal set kept exact while expanding alternations, classes and concatenations. */
const MAX_SET = 64;
/** Largest character class expanded into single characters. */
const MAX_CLASS = 8;

/**
 * What a sub-pattern tells about its matches: either the exact set of strings it can match
 * (`exact`), or a set of literals one of which every match contains (`need`; null when nothing
 * is known).
 */
type Info = { exact: Set<string> } | { need: Set<string> | null };

const UNKNOWN: Info = { need: null };
const EMPTY: Info = { exact: new Set([""]) };

/** The code unit as compared: ASCII A-Z to a-z, U+212A KELVIN SIGN to k, U+017F LONG S to s. */
function fold(c: number): number {
  if (c >= 65 && c <= 90) return c + 32;
  if (c === 0x212a) return 107;
  if (c === 0x17f) return 115;
  return c;
}

/** `fold` of the ASCII code units, looked up in the per-character loop. */
const ASCII_FOLD = Uint16Array.from({ length: 128 }, (_, c) => fold(c));

/** The folded form of one code point, or null when it is unknown (non-ASCII under /i). */
function char(cp: number, ignoreCase: boolean): string | null {
  if (ignoreCase && cp > 127) return null;
  const s = String.fromCodePoint(cp);
  let out = "";
  for (let i = 0; i < s.length; i++) out += String.fromCharCode(fold(s.charCodeAt(i)));
  return out;
}

function need(info: Info): Set<string> | null {
  if ("need" in info) return info.need;
  return info.exact.has("") ? null : info.exact;
}

/** The more selective of two literal sets: longer shortest literal, then fewer literals. */
function better(a: Set<string> | null, b: Set<string> | null): Set<string> | null {
  if (!a) return b;
  if (!b) return a;
  const shortest = (s: Set<string>) => Math.min(...[...s].map((x) => x.length));
  const la = shortest(a);
  const lb = shortest(b);
  if (la !== lb) return la > lb ? a : b;
  return a.size <= b.size ? a : b;
}

function cross(a: Set<string>, b: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}

function alternatives(alts: readonly AST.Alternative[], ic: boolean): Info {
  const infos = alts.map((a) => sequence(a.elements, ic));
  if (infos.every((i) => "exact" in i)) {
    const union = new Set<string>();
    for (const i of infos) for (const s of (i as { exact: Set<string> }).exact) union.add(s);
    if (union.size <= MAX_SET) return { exact: union };
  }
  const union = new Set<string>();
  for (const i of infos) {
    const n = need(i);
    if (!n) return UNKNOWN;
    for (const s of n) union.add(s);
  }
  return { need: union };
}

/**
 * A concatenation: runs of exact elements are expanded into their strings (up to MAX_SET); each
 * run that ends (an unknown element, or too many strings) is a candidate literal set, and the
 * best candidate is what every match must contain.
 */
function sequence(elements: readonly AST.Element[], ic: boolean): Info {
  let run: Set<string> = new Set([""]);
  let best: Set<string> | null = null;
  let exact = true;
  for (const e of elements) {
    const info = element(e, ic);
    if ("exact" in info && run.size * info.exact.size <= MAX_SET) {
      run = cross(run, info.exact);
      continue;
    }
    exact = false;
    best = better(best, need({ exact: run }));
    if ("exact" in info) run = info.exact;
    else {
      best = better(best, info.need);
      run = new Set([""]);
    }
  }
  return exact ? { exact: run } : { need: better(best, need({ exact: run })) };
}

function characterClass(node: AST.CharacterClass, ic: boolean): Info {
  if (node.negate) return UNKNOWN;
  const out = new Set<string>();
  for (const e of node.elements) {
    if (e.type === "Character") {
      const c = char(e.value, ic);
      if (c === null) return UNKNOWN;
      out.add(c);
    } else if (e.type === "CharacterClassRange") {
      if (e.max.value - e.min.value >= MAX_CLASS) return UNKNOWN;
      for (let cp = e.min.value; cp <= e.max.value; cp++) {
        const c = char(cp, ic);
        if (c === null) return UNKNOWN;
        out.add(c);
      }
    } else return UNKNOWN;
    if (out.size > MAX_CLASS) return UNKNOWN;
  }
  return out.size === 0 ? UNKNOWN : { exact: out };
}

function quantifier(node: AST.Quantifier, ic: boolean): Info {
  if (node.max === 0) return EMPTY;
  const inner = element(node.element, ic);
  if (node.min === 0) {
    if ("exact" in inner && node.max === 1 && inner.exact.size < MAX_SET) return { exact: new Set(["", ...inner.exact]) };
    return UNKNOWN;
  }
  if ("exact" in inner && node.min === node.max && inner.exact.size ** node.min <= MAX_SET) {
    let out: Set<string> = new Set([""]);
    for (let i = 0; i < node.min; i++) out = cross(out, inner.exact);
    return { exact: out };
  }
  return { need: need(inner) };
}

function element(node: AST.Element, ic: boolean): Info {
  switch (node.type) {
    case "Character": {
      const c = char(node.value, ic);
      return c === null ? UNKNOWN : { exact: new Set([c]) };
    }
    case "CharacterClass":
      return characterClass(node, ic);
    case "Assertion":
      return EMPTY; // zero-width (\b, ^, $, lookarounds): the match's text is what the literals are in
    case "Quantifier":
      return quantifier(node, ic);
    case "Group":
      // An inline modifier such as (?i:...) changes case rules inside: no gate, to stay exact.
      return node.modifiers ? UNKNOWN : alternatives(node.alternatives, ic);
    case "CapturingGroup":
      return alternatives(node.alternatives, ic);
    default:
      return UNKNOWN; // character sets (\w, \d, ., \p{..}), backreferences, class expressions
  }
}

/** A text's bitset has about 16 bits per code unit, between 2^MIN_BITS and 2^MAX_BITS bits. */
const MIN_BITS = 11;
const MAX_BITS = 18;

/**
 * A pattern's gate: literals of three or more code units as the mixed hashes of their trigrams
 * (one flat array; literal k's end at `ends[k]`; the bit of a hash in a bitset of 2^b bits is
 * its top b bits), and shorter literals as themselves.
 */
interface Gate {
  hashes: Int32Array;
  ends: Int32Array;
  short: string[];
}

const gates = new WeakMap<RegExp, Gate | null>();

/** Mixed 32-bit hash of the folded trigram `a b c` (multiplicative hashing: the top bits are the mixed ones). */
function trigramHash(a: number, b: number, c: number): number {
  return Math.imul(Math.imul(a, 0x01000193) ^ ((b << 16) | c), 0x9e3779b1);
}

/**
 * The literals one of which every match of `re` contains, folded (see the module comment), or
 * null when the pattern has none (it may match any text, e.g. `\d+` or `a?`). Exposed for tests.
 */
export function requiredLiterals(re: RegExp): string[] | null {
  const ast = parseRegExpLiteral(re);
  const n = need(alternatives(ast.pattern.alternatives, ast.flags.ignoreCase));
  return n ? [...n] : null;
}

/**
 * The gate of `re`, or null when it has none. A literal shorter than three code units is
 * searched as it is, which is exact only when it holds no a-z (folding maps A-Z, KELVIN SIGN and
 * LONG S onto a-z); a pattern with a shorter literal holding a-z gets no gate.
 */
function gateOf(re: RegExp): Gate | null {
  let g = gates.get(re);
  if (g !== undefined) return g;
  g = null;
  const literals = requiredLiterals(re);
  if (literals?.every((l) => l.length >= 3 || !/[a-z]/.test(l))) {
    const long = literals.filter((l) => l.length >= 3);
    let end = 0;
    const ends = Int32Array.from(long, (l) => (end += l.length - 2));
    const hashes: number[] = [];
    for (const l of long) for (let i = 0; i + 3 <= l.length; i++) hashes.push(trigramHash(l.charCodeAt(i), l.charCodeAt(i + 1), l.charCodeAt(i + 2)));
    g = { hashes: Int32Array.from(hashes), ends, short: literals.filter((l) => l.length < 3) };
  }
  gates.set(re, g);
  return g;
}

/** A text's trigram presence bitset: bit `trigramHash(a, b, c) >>> shift` set for each folded trigram. */
interface Grams {
  bits: Uint32Array;
  shift: number;
}

/** Texts whose bitsets are remembered (the rule tables of several scorers scan the same texts). */
const MAX_CACHED = 16;
let cached = new Map<string, Grams>();

function gramsOf(text: string): Grams {
  let g = cached.get(text);
  if (g) return g;
  let size = MIN_BITS;
  while (size < MAX_BITS && 1 << size < text.length * 16) size++;
  const shift = 32 - size;
  const bits = new Uint32Array(1 << (size - 5));
  let a = text.length > 0 ? fold(text.charCodeAt(0)) : 0;
  let b = text.length > 1 ? fold(text.charCodeAt(1)) : 0;
  for (let i = 2; i < text.length; i++) {
    const u = text.charCodeAt(i);
    const c = u < 128 ? ASCII_FOLD[u]! : fold(u);
    const h = trigramHash(a, b, c) >>> shift;
    bits[h >>> 5]! |= 1 << (h & 31);
    a = b;
    b = c;
  }
  g = { bits, shift };
  if (cached.size >= MAX_CACHED) cached = new Map();
  cached.set(text, g);
  return g;
}

/**
 * False when `re` cannot match anywhere in `text` (a required literal is missing); true when it
 * may (then run it). Exact: never false for a text the pattern matches.
 */
export function mayMatch(re: RegExp, text: string): boolean {
  const gate = gateOf(re);
  if (!gate) return true;
  for (let k = 0; k < gate.short.length; k++) if (text.includes(gate.short[k]!)) return true;
  const ends = gate.ends;
  if (ends.length === 0) return false;
  const { bits, shift } = gramsOf(text);
  const hashes = gate.hashes;
  let j = 0;
  for (let k = 0; k < ends.length; k++) {
    const end = ends[k]!;
    while (j < end) {
      const i = hashes[j]! >>> shift;
      if ((bits[i >>> 5]! & (1 << (i & 31))) === 0) break;
      j++;
    }
    if (j === end) return true; // every trigram of literal k is present
    j = end;
  }
  return false;
}
