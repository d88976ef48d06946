/**
 * Finding personal data and credentials in text (docs/decisions.md D17): every detector of
 * ./patterns.ts run over a text, overlaps resolved, the project's allow list applied. Used by the
 * `pii_detection` scorer (src/scoring/scorers/pii_detection/) and by masking (./mask.ts).
 */
import { PHONE_CONTEXT_AFTER, PII_DETECTORS, type PiiDetector } from "./patterns";
import { mayMatch } from "../scoring/prefilter";

/** A detector hit: detector id, normalised value (kept in memory only), context flag. */
export interface PiiHit {
  id: string;
  weight: number;
  secret: boolean;
  withContext: boolean;
  /** Digits/lower-case form used to tell whether the completion repeats the prompt. */
  key: string;
  /** Span of the match in the searched text: UTF-16 offsets, `start` inclusive, `end` exclusive. */
  start: number;
  end: number;
}

const CONTEXT_WINDOW = 48;

const HAS_DIGIT = /[0-9]/;

/** Whether `text` holds one of a detector's `requires` strings (its gate). */
function present(requires: readonly string[], text: string, hasDigit: boolean): boolean {
  for (const r of requires) if (r === "0-9" ? hasDigit : text.includes(r)) return true;
  return false;
}

const stickyCopies = new WeakMap<RegExp, RegExp>();

/** `re` matching only at `lastIndex` (flag y), for trying the starts before a landmark. */
function sticky(re: RegExp): RegExp {
  let s = stickyCopies.get(re);
  if (!s) {
    s = new RegExp(re.source, `${re.flags.replace("g", "")}y`);
    stickyCopies.set(re, s);
  }
  return s;
}

/**
 * The next match of detector `d` in `text` at or after `from`: the pattern's own leftmost
 * match. With an anchor (./patterns.ts), only the starts that can reach a landmark are
 * tried: for each landmark in order, the positions back to where `before` fails (at most
 * `reach` back); the landmark's first code unit fails `before`, so these runs do not overlap
 * and the first match found is the leftmost. Exposed for tests.
 */
export function nextMatch(d: PiiDetector, text: string, from: number): RegExpExecArray | null {
  if (!d.anchor) {
    d.pattern.lastIndex = from;
    const m = d.pattern.exec(text);
    d.pattern.lastIndex = 0;
    return m;
  }
  const { pattern: landmarks, reach, before } = d.anchor;
  const re = sticky(d.pattern);
  const unicode = re.unicode;
  let tried = from; // every start below this has been tried (or cannot match)
  landmarks.lastIndex = from;
  try {
    for (let l = landmarks.exec(text); l !== null; l = landmarks.exec(text)) {
      const q = l.index;
      const limit = Math.max(tried, q - reach);
      let s = q;
      while (s > limit && before(text.charCodeAt(s - 1))) s--;
      for (; s <= q; s++) {
        // A /u pattern never starts between the two halves of a surrogate pair.
        if (unicode && s > 0 && isTrail(text.charCodeAt(s)) && isLead(text.charCodeAt(s - 1))) continue;
        re.lastIndex = s;
        const m = re.exec(text);
        if (m) return m;
      }
      tried = q + 1;
    }
    return null;
  } finally {
    landmarks.lastIndex = 0;
    re.lastIndex = 0;
  }
}

const isLead = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isTrail = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** The comparison form of a value: without spaces, brackets, dots and dashes, lower-cased. */
const keyOf = (value: string) => value.replace(/[\s().-]/g, "").toLowerCase();

/**
 * Values a project does not want flagged (policy `pii_detection.allow`, docs/policy.md), built by
 * `piiAllowList`: exact values, compared in `keyOf` form (so "+1 (555) 010-0000" allows
 * "+15550100000"), and e-mail domains ("@acme.example": every address at exactly that domain).
 */
export interface PiiAllowList {
  keys: ReadonlySet<string>;
  /** Lower-cased, with the leading "@". */
  domains: readonly string[];
}

/** The allow list of policy entries; undefined when there are none (the common case costs nothing). */
export function piiAllowList(entries: readonly string[] | undefined): PiiAllowList | undefined {
  if (!entries?.length) return undefined;
  const domains = entries.filter((e) => e.startsWith("@")).map((e) => e.toLowerCase());
  const keys = new Set(entries.filter((e) => !e.startsWith("@")).map(keyOf));
  return { keys, domains };
}

function isAllowed(allow: PiiAllowList, detector: string, value: string, key: string): boolean {
  if (allow.keys.has(key)) return true;
  if (detector !== "email" || allow.domains.length === 0) return false;
  const at = value.lastIndexOf("@");
  return at >= 0 && allow.domains.includes(value.slice(at).toLowerCase());
}

/** Whether the `allow` list spares `value`, a match of `detector` (exact value in `keyOf` form, or e-mail domain). */
export function allowsValue(allow: PiiAllowList | undefined, detector: string, value: string): boolean {
  return allow !== undefined && isAllowed(allow, detector, value, keyOf(value));
}

/**
 * Runs every detector over `text` and returns every hit, however many (masking must find them
 * all, issue 32.2); linear in its length: each pattern's backtracking is bounded per start, each
 * detector's scan resumes after its last match, and the overlap check reads each hit's span once.
 * A detector is skipped when its `requires` gate or its literal prefilter (./prefilter.ts) rules
 * a hit out. A match the `allow` list names is not a hit (its span is still claimed, so no
 * other detector flags a part of it).
 */
export function findPii(text: string, allow?: PiiAllowList): PiiHit[] {
  const hits: PiiHit[] = [];
  // Code units claimed by a hit: a span overlapping one is not counted twice.
  let claimed: Uint8Array | undefined;
  const hasDigit = HAS_DIGIT.test(text);
  for (const d of PII_DETECTORS) {
    if (!present(d.requires, text, hasDigit) || !mayMatch(d.gate ?? d.pattern, text)) continue;
    let from = 0;
    let m: RegExpExecArray | null;
    while ((m = nextMatch(d, text, from)) !== null) {
      let start = m.index;
      let end = start + m[0].length;
      from = end > start ? end : start + 1;
      if (end === start) continue;
      // A span already claimed by an earlier (more specific) detector is not counted twice.
      if (claimed && overlaps(claimed, start, end)) continue;
      const before = text.slice(Math.max(0, start - CONTEXT_WINDOW), start);
      const after = d.id === "phone" ? text.slice(end, end + 16) : "";
      const withContext = d.context ? d.context.test(before) || PHONE_CONTEXT_AFTER.test(after) : false;
      if (d.needsContext && !withContext) continue;
      if (d.validate) {
        const valid = d.validate(m, before);
        if (!valid) continue;
        if (valid !== true) [start, end] = [start + valid[0], start + valid[1]];
      }
      claimed ??= new Uint8Array(text.length);
      claimed.fill(1, start, end);
      const value = text.slice(start, end);
      const key = keyOf(value);
      if (allow && isAllowed(allow, d.id, value, key)) continue;
      hits.push({ id: d.id, weight: d.weight, secret: d.secret === true, withContext, key, start, end });
    }
  }
  return hits;
}

function overlaps(claimed: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (claimed[i]) return true;
  return false;
}
