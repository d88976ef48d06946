/**
 * Checksum and structure validators used by the PII detectors. Each function is pure and
 * takes the matched text; none of them allocates more than the input size.
 */
import { decodeBase64Url } from "../scoring/obfuscation";

/** Luhn mod-10 check (ISO/IEC 7812-1 annex B) over the digits of `s`. */
export function luhnValid(s: string): boolean {
  const digits = s.replace(/\D/g, "");
  if (digits.length < 12) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Issuer identification number ranges of the major schemes (ISO/IEC 7812-1 IIN registry as
 * published by the schemes): Visa 4; Mastercard 51-55, 2221-2720; Amex 34/37; Discover 6011,
 * 644-649, 65; Diners 30/36/38/39; JCB 3528-3589; UnionPay 62/81; Maestro 50, 56-69.
 */
export function knownIin(digits: string): boolean {
  const p2 = Number(digits.slice(0, 2));
  const p4 = Number(digits.slice(0, 4));
  const len = digits.length;
  if (digits[0] === "4") return len === 13 || len === 16 || len === 19;
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return len === 16;
  if (p2 === 34 || p2 === 37) return len === 15;
  if (p2 === 30 || p2 === 36 || p2 === 38 || p2 === 39) return len >= 14 && len <= 19;
  if (p4 >= 3528 && p4 <= 3589) return len >= 16 && len <= 19;
  if (p2 === 62 || p2 === 81) return len >= 16 && len <= 19;
  if (p2 === 50 || (p2 >= 56 && p2 <= 69)) return len >= 12 && len <= 19;
  return false;
}

/** IBAN lengths per country (ISO 13616 registry, SWIFT release). */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
};

/** IBAN check: country length table and ISO 7064 mod 97-10 == 1 (ISO 13616-1). */
export function ibanValid(s: string): boolean {
  const compact = s.replace(/[\s./-]/g, "").toUpperCase();
  const len = IBAN_LENGTHS[compact.slice(0, 2)];
  // A candidate may run on into following characters ("... 9374 and"): read the country's length.
  if (len === undefined || compact.length < len) return false;
  const iban = compact.slice(0, len);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of moved) {
    const code = ch.charCodeAt(0);
    const v = code >= 65 && code <= 90 ? String(code - 55) : ch;
    for (const d of v) rem = (rem * 10 + (d.charCodeAt(0) - 48)) % 97;
  }
  return rem === 1;
}

/**
 * US SSN structure (SSA rules since 2011 randomization): area not 000, 666 or 900-999,
 * group not 00, serial not 0000; also rejects the advertised sample 078-05-1120.
 */
export function ssnValid(area: string, group: string, serial: string): boolean {
  const a = Number(area);
  if (a === 0 || a === 666 || a >= 900) return false;
  if (group === "00" || serial === "0000") return false;
  return !(area === "078" && group === "05" && serial === "1120");
}

/** Dotted-quad IPv4 with every octet 0-255 and no leading zeros beyond "0" (RFC 791). */
export function ipv4Valid(s: string): boolean {
  const parts = s.split(".");
  if (parts.length !== 4) return false;
  return parts.every((p) => p.length > 0 && p.length <= 3 && Number(p) <= 255 && !(p.length > 1 && p[0] === "0"));
}

/** IPv6 text form (RFC 4291 section 2.2): 8 groups, or fewer with exactly one "::". */
export function ipv6Valid(s: string): boolean {
  const dbl = s.split("::");
  if (dbl.length > 2) return false;
  const groups = s.split(":").filter((g) => g !== "");
  if (!groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  if (dbl.length === 2) return groups.length <= 7 && groups.length >= 1;
  return groups.length === 8;
}

/** JWT (RFC 7519): header part decodes to a JSON object carrying an `alg` member. */
export function jwtValid(token: string): boolean {
  const header = decodeBase64Url(token.split(".")[0] ?? "");
  if (!header) return false;
  try {
    const h = JSON.parse(header) as unknown;
    return typeof h === "object" && h !== null && "alg" in h;
  } catch {
    return false;
  }
}
