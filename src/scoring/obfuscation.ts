/**
 * Detectors for hidden and encoded payloads, shared by `jailbreak_detection` (direct
 * injection, OWASP LLM01) and `vector_weakness` (hidden text in context, OWASP LLM08).
 * Each returns counts only; callers turn them into findings.
 */

/** Base64url decode to a string; null when the input is not valid base64url. */
export function decodeBase64Url(s: string): string | null {
  try {
    const b64 = s.replace(/-/g, "+").replace(/_/g, "/");
    return atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  } catch {
    return null;
  }
}

/** Unicode tag characters U+E0000-U+E007F (invisible "ASCII smuggling", Goodside 2024). */
export const TAG_CHARS = /[\u{E0000}-\u{E007F}]/gu;
/** Zero-width and invisible format characters (ZWSP, ZWNJ, ZWJ, WJ, BOM, soft hyphen...). */
export const ZERO_WIDTH = /[\u200B-\u200D\u2060-\u2064\uFEFF\u00AD\u180E]/g;
/** Bidirectional overrides and isolates (CVE-2021-42574 "Trojan Source"). */
export const BIDI = /[\u202A-\u202E\u2066-\u2069]/g;

/** Instruction words that make a decoded payload an injection rather than data. */
const INSTRUCTION_WORDS =
  /\b(?:ignore|disregard|instructions?|prompt|system|password|secret|reveal|pretend|you are|you must|tell me|how to|bomb|kill|hack|steal|drugs?|weapon|jailbreak|respond|answer|say|write|what|the)\b/i;

function printableRatio(s: string): number {
  if (s.length === 0) return 0;
  let ok = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 32 && c < 127) || c === 10 || c === 13 || c === 9) ok++;
  }
  return ok / s.length;
}

/** Encoded payloads found in a text, by kind; `instructive` counts decodes with instruction words. */
export interface EncodedFinding {
  base64: number;
  hex: number;
  binary: number;
  instructive: number;
}

const BASE64_BLOB = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{24,}={0,2}(?![A-Za-z0-9+/=])/g;
const HEX_BLOB = /(?<![0-9A-Za-z])(?:[0-9a-fA-F]{2}[ :]?){16,}(?![0-9A-Za-z])/g;
const BINARY_BLOB = /(?<![01])(?:[01]{8} ?){6,}/g;
/** Blobs examined per text: enough to catch payloads, bounded for 100 KB inputs. */
const MAX_BLOBS = 50;

/** Finds base64, hex and binary-octet blobs that decode to readable text. */
export function findEncoded(text: string): EncodedFinding {
  const out: EncodedFinding = { base64: 0, hex: 0, binary: 0, instructive: 0 };
  const check = (decoded: string | null, kind: "base64" | "hex" | "binary") => {
    if (!decoded || decoded.length < 12 || printableRatio(decoded) < 0.95 || !/[a-z]{3,} [a-z]{2,}/i.test(decoded)) return;
    out[kind]++;
    if (INSTRUCTION_WORDS.test(decoded)) out.instructive++;
  };
  let n = 0;
  for (const m of text.matchAll(BASE64_BLOB)) {
    if (++n > MAX_BLOBS) break;
    // Identifiers, hashes and file paths are base64-alphabet too: require mixed case and length % 4 sanity.
    if (!/[a-z]/.test(m[0]) || !/[A-Z]/.test(m[0])) continue;
    check(decodeBase64Url(m[0].replace(/=+$/, "")), "base64");
  }
  n = 0;
  for (const m of text.matchAll(HEX_BLOB)) {
    if (++n > MAX_BLOBS) break;
    const hex = m[0].replace(/[ :]/g, "");
    let s = "";
    for (let i = 0; i + 1 < hex.length; i += 2) s += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
    check(s, "hex");
  }
  n = 0;
  for (const m of text.matchAll(BINARY_BLOB)) {
    if (++n > MAX_BLOBS) break;
    const bits = m[0].replace(/ /g, "");
    let s = "";
    for (let i = 0; i + 7 < bits.length; i += 8) s += String.fromCharCode(parseInt(bits.slice(i, i + 8), 2));
    check(s, "binary");
  }
  return out;
}

/** A Greek or Cyrillic letter (the scripts with Latin look-alikes). */
const GREEK_OR_CYRILLIC = /[\u0370-\u03FF\u0400-\u04FF]/;

/**
 * Words mixing Latin with Cyrillic or Greek letters (homoglyph spoofing, Unicode TR39
 * "mixed-script confusables"), e.g. "pаssword" with a Cyrillic "а".
 */
export function mixedScriptWords(text: string): number {
  // No Greek or Cyrillic letter at all (most texts): no word can mix, skip the word scan.
  if (!GREEK_OR_CYRILLIC.test(text)) return 0;
  let n = 0;
  for (const m of text.matchAll(/[\p{L}]{3,}/gu)) {
    const w = m[0];
    const latin = /[A-Za-z]/.test(w);
    if (latin && GREEK_OR_CYRILLIC.test(w)) n++;
    if (n >= 50) break;
  }
  return n;
}
