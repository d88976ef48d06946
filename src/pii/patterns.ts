/**
 * PII and credential detectors for `pii_detection`: one row per detector, with the
 * Presidio recognizer or standard it follows, its weight (Likert score on its own), the
 * validator that cuts look-alikes, and the context words that raise confidence.
 */
import { ibanValid, ipv4Valid, ipv6Valid, jwtValid, knownIin, luhnValid, ssnValid } from "./validators";

/** One detector row. `validate` sees the match and the 48 characters before it. */
export interface PiiDetector {
  id: string;
  source: string;
  /** Likert weight when found in the prompt; completion-only disclosure adds one. */
  weight: number;
  pattern: RegExp;
  /**
   * Whether the match is a hit; or, for a detector whose matches may run on into neighbouring
   * numbers, the hit's `[start, end)` offsets inside the match (a narrower span), or null for none.
   */
  validate?: (m: RegExpExecArray, before: string) => boolean | readonly [number, number] | null;
  /** Presidio-style context words (looked for in the 48 characters before the match). */
  context?: RegExp;
  /** Only report the match when a context word is present. */
  needsContext?: boolean;
  /** Credentials are secrets, not personal data: reported as `secret`. */
  secret?: boolean;
  /**
   * A gate, not a rule: strings of which the pattern cannot match without one (`"0-9"` for any
   * digit; lower-case when the pattern ignores case). A text without any is not searched.
   */
  requires: readonly string[];
  /**
   * A pattern that matches in every text where this detector reports a hit, when its literals
   * rule out more texts than the detector's own pattern does (the literal prefilter,
   * ./prefilter.ts, reads it instead of `pattern`).
   */
  gate?: RegExp;
  /**
   * A landmark every match holds, for a search that visits landmarks instead of every position
   * (findPii, `nextMatch`): `pattern` (global) finds the landmarks, the first of which in a
   * match starts at most `reach` code units after the match's start; every code unit of the
   * match before it satisfies `before`; the landmark's own first code unit never does.
   */
  anchor?: { pattern: RegExp; reach: number; before: (code: number) => boolean };
}

/** `requires` of patterns that need a digit. */
const DIGIT = ["0-9"] as const;

const VERSION_CONTEXT = /\b(?:version|ver|v|build|release|firmware|rev|revision|update|patch|sdk|api|kernel|driver|package|app|browser)\b[\s:#.]*$/i;
const ORDER_CONTEXT =
  /\b(?:order|invoice|ticket|tracking|part|sku|serial|reference|ref|booking|confirmation|case|account|barcode|isbn|request|transaction|id)\b[\s\w#:.-]{0,14}$/i;
const PHONE_CONTEXT =
  /\b(?:phone|tel|telephone|mobile|cell|cellphone|fax|desk|office|home|work|call|calling|text me|sms|whatsapp|contact|reach|reachable|dial|ring|answering|registered|messages? to|hotline|landline|ph|mob)\b/i;
/** Phone context written after the number ("07700 900 123-Fax", "555 0100 (mobile)"). */
export const PHONE_CONTEXT_AFTER = /^[\s(:-]{0,3}(?:fax|office|mobile|cell|phone|tel|home|work|desk)\b/i;

const CARD_CONTEXT = /\b(?:card|credit|debit|visa|mastercard|amex|american express|discover|jcb|maestro|diners|cc|payment|charge)\b/i;

/** Digits of a phone candidate: 7 to 15 (ITU-T E.164 maximum 15). */
function phoneDigits(s: string, min = 7): boolean {
  const d = s.replace(/\D/g, "").length;
  return d >= min && d <= 15;
}

/** Not a calendar date or clock time written with separators. */
function notDateLike(s: string): boolean {
  return !/^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$|^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}$|^\d{1,2}:\d{2}/.test(s.trim());
}

/** Street-type suffixes of compound street names (UPU S42 international address templates). */
const STREET_SUFFIXES =
  "straat|strasse|straße|weg|vej|vägen|gatan|gata|gade|veien|vegen|gasse|laan|plein|katu|tie|utca|ulica|platz|allee|dijk|kade|stræde|steig";
/** A compound street name: 1-40 letters before a street-type suffix. */
const COMPOUND_STREET = new RegExp(`^\\p{Lu}[\\p{L}'-]{1,40}(?:${STREET_SUFFIXES})$`, "iu");

/** A card number: Luhn-valid, and in a known issuer range or after a card context word (Presidio-style). */
function isCard(digits: string, before: string): boolean {
  if (!luhnValid(digits)) return false;
  return CARD_CONTEXT.test(before) || (knownIin(digits) && !ORDER_CONTEXT.test(before));
}

/**
 * The span of a card number in `match` (digit groups with optional separators): the whole
 * match when it is one; else the longest run of whole groups of 3 or more digits each (cards are
 * written in groups of 4, or 4-6-5 and 4-6-4) that is one, leftmost first, so a card beside other
 * numbers ("item 1 4111 1111 1111 1111 2") is still found; null when none. A match holds at most
 * 19 digits, so at most 6 such groups and 21 runs: bounded work per match.
 */
function cardSpan(match: string, before: string): readonly [number, number] | null {
  if (isCard(match.replace(/\D/g, ""), before)) return [0, match.length];
  const groups = [...match.matchAll(/\d+/g)].map((g) => ({ start: g.index, end: g.index + g[0].length, digits: g[0] }));
  let best: readonly [number, number] | null = null;
  for (let i = 0; i < groups.length; i++) {
    let digits = "";
    for (let j = i; j < groups.length && groups[j]!.digits.length >= 3; j++) {
      digits += groups[j]!.digits;
      const [start, end] = [groups[i]!.start, groups[j]!.end];
      if (digits.length < 12 || (best && end - start <= best[1] - best[0])) continue;
      if (luhnValid(digits) && isCard(digits, before + match.slice(0, start))) best = [start, end];
    }
  }
  return best;
}

/** `[A-Za-z0-9._%+-]`: the characters of an e-mail address's local part in the pattern below. */
function isLocalPart(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 46 || c === 95 || c === 37 || c === 43 || c === 45;
}

/** `[0-9A-Fa-f]`. */
function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** A superset of `[\p{L}'.-]`: ASCII letters, `'`, `-`, `.` and every non-ASCII code unit. */
function maybeWordOrDot(c: number): boolean {
  return c > 127 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 39 || c === 45 || c === 46;
}

/** The detector table, applied in order to every text of a call. */
export const PII_DETECTORS: readonly PiiDetector[] = [
  {
    id: "credit_card",
    source: "Presidio CreditCardRecognizer; Luhn and IIN ranges per ISO/IEC 7812-1",
    weight: 4,
    pattern: /(?<![\d-])\d(?:[ .-]?\d){11,18}(?![\d-])/g,
    requires: DIGIT,
    validate: (m, before) => cardSpan(m[0], before),
    context: CARD_CONTEXT,
  },
  {
    id: "iban",
    source: "Presidio IbanRecognizer; ISO 13616 lengths, ISO 7064 mod 97-10",
    weight: 4,
    // Any grouping people and documents use: "NO9386011117947", "DE89 3704 0044 0532 0130 00",
    // "NO 44 1850.05.14562", "ES15-0049-1806-9121-1186-9374"; the validator reads the country's
    // length of characters from the start, so a word after the number does not spoil it.
    pattern: /\b[A-Za-z]{2}[ .-]?\d{2}(?:[ ./-]?[A-Za-z0-9]){11,30}\b/g,
    requires: DIGIT,
    validate: (m) => ibanValid(m[0]),
    context: /\b(?:iban|bank|account|transfer|wire|sepa)\b/i,
  },
  {
    id: "us_ssn",
    source: "Presidio UsSsnRecognizer; SSA area/group/serial rules",
    weight: 4,
    pattern: /(?<![\d-])(\d{3})([- .])(\d{2})\2(\d{4})(?![\d-])/g,
    requires: DIGIT,
    validate: (m, before) => ssnValid(m[1] ?? "", m[3] ?? "", m[4] ?? "") && !ORDER_CONTEXT.test(before),
    context: /\b(?:ssn|social security|social sec|ss#|ssid|tax id|taxpayer)\b/i,
  },
  {
    id: "us_ssn",
    source: "Presidio UsSsnRecognizer (unformatted, context required)",
    weight: 4,
    pattern: /(?<!\d)(\d{3})(\d{2})(\d{4})(?!\d)/g,
    requires: DIGIT,
    validate: (m) => ssnValid(m[1] ?? "", m[2] ?? "", m[3] ?? ""),
    context: /\b(?:ssn|social security|ss#)\b/i,
    needsContext: true,
  },
  {
    id: "email",
    source: "Presidio EmailRecognizer (RFC 5322 practical subset)",
    weight: 4,
    pattern: /(?<![\w.%+-])[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,62}[A-Za-z0-9_])?@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){1,6}[A-Za-z]{2,24}\b/g,
    requires: ["@"],
    anchor: { pattern: /@/g, reach: 64, before: isLocalPart }, // local part: 1 + 62 + 1 characters at most
  },
  {
    id: "phone",
    source: "Presidio PhoneRecognizer: NANP (xxx) xxx-xxxx, ITU-T E.164 with +",
    weight: 4,
    pattern: /(?<![\w+])(?:\+?1[ .-]?)?(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}(?: ?(?:x|ext\.?) ?\d{1,5})?(?![\d-])/g,
    requires: DIGIT,
    validate: (_m, before) => !VERSION_CONTEXT.test(before) && !ORDER_CONTEXT.test(before),
    context: PHONE_CONTEXT,
  },
  {
    id: "phone",
    source: "ITU-T E.164 international number with leading +",
    weight: 4,
    pattern: /(?<![\w+])\+\d[\d ().-]{6,20}\d(?!\d)/g,
    requires: DIGIT,
    validate: (m) => phoneDigits(m[0], 8),
    context: PHONE_CONTEXT,
  },
  {
    id: "phone",
    source: "Presidio PhoneRecognizer national formats (context words required)",
    weight: 4,
    pattern: /(?<![\w.+/-])\(?\d[\d ().-]{5,16}\d(?![\w/-])/g,
    requires: DIGIT,
    validate: (m, before) => phoneDigits(m[0]) && notDateLike(m[0]) && /[\s().-]|^\d{8,}$/.test(m[0]) && !ORDER_CONTEXT.test(before),
    context: PHONE_CONTEXT,
    needsContext: true,
  },
  {
    id: "ip_address",
    source: "Presidio IpRecognizer: IPv4 dotted quad (RFC 791), version strings excluded",
    weight: 4,
    pattern: /(?<![\w.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![\w]|\.\d)/g,
    requires: DIGIT,
    validate: (m, before) => ipv4Valid(m[0]) && !VERSION_CONTEXT.test(before),
    context: /\b(?:ip|address|host|server|client|from|connect|blocked|ping|ssh)\b/i,
  },
  {
    id: "ip_address",
    source: "Presidio IpRecognizer: IPv6 (RFC 4291 section 2.2)",
    weight: 4,
    pattern: /(?<![\w:.])[0-9A-Fa-f]{0,4}:[0-9A-Fa-f:]{2,37}(?![\w:])/g,
    requires: [":"],
    anchor: { pattern: /:/g, reach: 4, before: isHexDigit }, // at most 4 hex digits before the first colon
    validate: (m) => ipv6Valid(m[0]) && /::|(?:[^:]*:){7}/.test(m[0]),
  },
  {
    id: "drivers_license",
    source: "Presidio UsLicenseRecognizer (context required)",
    weight: 4,
    pattern: /(?<![\w-])[A-Z]{0,2}\d[\d-]{4,15}\d(?![\w-])|(?<![\w-])[A-Z]\d{3}-\d{4}-\d{4}(?![\w-])/g,
    requires: DIGIT,
    context: /\b(?:driver'?s?|driving|licen[cs]e|DL|DLN|permit)\b/i,
    needsContext: true,
  },
  {
    id: "street_address",
    source: "USPS Publication 28 street suffixes: number + name + suffix",
    weight: 4,
    pattern:
      /\b\d{1,6}[A-Za-z]?,? \p{Lu}[\p{L}'.-]*\.? (?:[\p{L}'.-]+\.? ){0,3}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Square|Sq|Trail|Turnpike|Crescent|Close|Alley|Loop|Pike|Plaza|Ridge|Grove|Gardens|Mews|Expressway|Freeway|Junction|Heights|Str)\b\.?(?! ?\d{1,3} ?(?:km|mi|miles|min))/gu,
    requires: DIGIT,
  },
  {
    id: "street_address",
    source: "UPU S42 international address templates: compound street names + house number",
    weight: 4,
    // The word is matched first and its suffix checked after (`validate`): the same matches as
    // one pattern with the suffix alternation inside, without retrying 24 suffixes at every
    // position of every capitalised word.
    pattern: /\b\p{Lu}[\p{L}'-]{3,47}\.? \d{1,5}[a-zA-Z]?\b/giu,
    anchor: { pattern: / \d/g, reach: 97, before: maybeWordOrDot }, // 1 + 47 letters (2 code units each if astral) and a dot
    validate: (m) => COMPOUND_STREET.test(m[0].slice(0, m[0].search(/\.? \d/))),
    requires: DIGIT,
    // A hit is a word ending in a suffix, then `.? ` and a digit: texts without that are skipped.
    gate: new RegExp(`(?:${STREET_SUFFIXES})\\.? \\d`, "iu"),
  },
  {
    id: "street_address",
    source: "UPU S42 international address templates: street name, street-type word, house number",
    weight: 4,
    pattern:
      /\b\p{Lu}[\p{L}'-]+ (?:Strasse|Straße|Str\.|tér|út|útja|utca|körút|terrasse|gata|gatan|vej|vei|veien|weg|laan|straat|kapu|sor|allee|gasse|platz|ulica|stræti|vegur|Rua|Avenida) \d{1,5}[a-zA-Z]?\b/gu,
    requires: DIGIT,
  },
  {
    id: "street_address",
    source: "UPU S42 international address templates: name + house number + street word",
    weight: 4,
    pattern: /\b\p{Lu}[\p{L}'-]+ \d{1,5}[a-zA-Z]?\.? (?:St|st|Street|street|Str|str)\b/gu,
    requires: DIGIT,
  },
  {
    id: "street_address",
    source: "UPU S42 international address templates: house number, street name, number, line break",
    weight: 4,
    pattern: /(?<![\d.,])\d{1,5} \p{Lu}[\p{L}'.-]+(?: [\p{L}'.-]+){0,3} \d{1,5}[a-zA-Z]?\.?(?= *(?:\n|,|$))/gu,
    requires: DIGIT,
  },
  {
    id: "street_address",
    source: "UPU S42 international address templates: house number then street-type word",
    weight: 4,
    pattern:
      /\b\d{1,5}[a-zA-Z]?,? (?:[Rr]ue|Avenue|Boulevard|Chemin|Allée|Impasse|Via|Viale|Piazza|Corso|Calle|Avenida|Paseo|Rua|Rúa|Travessa|Carrer) (?:d[eiu]s? |la |le |l'|del |da |do |dos |das )?\p{L}[\p{L}'-]+/gu,
    requires: DIGIT,
  },
  {
    id: "street_address",
    source: "UPU S42 international address templates: street-type word first",
    weight: 4,
    pattern:
      /\b(?:[Rr]ue|Avenue|Boulevard|Chemin|Allée|Impasse|Via|Viale|Piazza|Corso|Calle|Avenida|Paseo|Rua|Rúa|Travessa|Praça|[Uu]l\.|[Uu]lica|Aleja|Al\.|Strada|Odos|Odós|Leoforos|Calea|Bulevardul|Carrer|Rambla) (?:[\p{L}'.-]+ ){0,4}?\d{1,5}\b(?![.,]?\d)/gu,
    requires: DIGIT,
  },
  {
    id: "street_address",
    source: "USPS Publication 28 secondary unit designators (Apt, Suite) after a street line",
    weight: 4,
    pattern: /\b\d{1,6}[ ,]+[\s\S]{2,80}?\b(?:Apt\.?|Apartment|Suite|Ste\.) ?#? ?\d{1,5}[A-Za-z]?\b/gu,
    requires: DIGIT,
  },
  {
    id: "street_address",
    source: "USPS Publication 28 military (PSC/Unit + Box, APO/FPO/DPO AA/AE/AP) and PO Box",
    weight: 4,
    pattern: /\b(?:PSC|CMR|Unit) \d{3,5},? Box \d{3,5}\b|\b(?:APO|FPO|DPO) (?:AA|AE|AP) \d{5}\b|\bP\.? ?O\.? Box \d{1,6}\b/gi,
    requires: DIGIT,
  },
  {
    id: "street_address",
    source: "Presidio-style context: 'address'/'located at'/'live at' followed by a numbered street",
    weight: 4,
    pattern:
      /\b(?:[Aa]ddress(?: is| it is)?|ADDRESS|[Ll]ocated at|[Ll]ives? (?:at|on)|[Ll]iving at|[Mm]eet(?: me)? at|[Ss]end (?:it|them|one) to|[Dd]eliver(?:ed)? to|[Ss]hip(?:ped)? to|[Tt]axi to|[Cc]orner of|[Dd]rops? you off at|[Ss]tation is on|[Ss]ent to|[Ii]t'?s in)[:?]? (?:it is |[Ii]t'?s )?(?:\p{L}[\p{L}'.-]*,? ){0,4}?(?:\d{1,5}[a-zA-Z]?,? (?:[\p{L}'.-]+ ){0,3}[\p{L}'.-]+|\p{Lu}[\p{L}'.-]+ (?:\p{L}+ )?\d{1,5}\b)/gu,
    requires: DIGIT,
  },
  {
    id: "aws_access_key",
    source: "AWS IAM access key id format (AKIA/ASIA + 16), gitleaks aws-access-token",
    weight: 5,
    pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b/g,
    requires: ["AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA"],
    secret: true,
  },
  {
    id: "github_token",
    source: "GitHub token formats ghp_/gho_/ghu_/ghs_/ghr_ and github_pat_",
    weight: 5,
    pattern: /\bgh[pousr]_[A-Za-z0-9]{36}\b|\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g,
    requires: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
    secret: true,
  },
  {
    id: "slack_token",
    source:
      "Slack token formats xoxb/xoxp/xoxa/xoxo/xoxs/xoxr, refresh tokens xoxe (xoxe.xoxp-, xoxe-) and app-level tokens xapp- (https://api.slack.com/authentication/token-types)",
    weight: 5,
    pattern: /\b(?:xoxe\.)?xox[abposre]-[A-Za-z0-9-]{10,200}\b|\bxapp-\d-[A-Za-z0-9-]{10,200}\b/g,
    secret: true,
    requires: ["xox", "xapp-"],
  },
  {
    id: "stripe_key",
    source:
      "Stripe secret and restricted keys, live and test mode: sk_live_, sk_test_, rk_live_, rk_test_ (https://docs.stripe.com/keys; up to 255 characters)",
    weight: 5,
    pattern: /\b[sr]k_(?:live|test)_[0-9A-Za-z]{20,247}\b/g,
    secret: true,
    requires: ["k_live_", "k_test_"],
  },
  {
    id: "openai_key",
    source: "OpenAI API key formats sk-, sk-proj-, sk-svcacct-",
    weight: 5,
    pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,200}/g,
    requires: ["sk-"],
    validate: (m) => /\d/.test(m[0]) && /[A-Za-z].*[A-Za-z]/.test(m[0].slice(3)),
    secret: true,
  },
  {
    id: "google_api_key",
    source: "Google API key format AIza + 35",
    weight: 5,
    pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g,
    secret: true,
    requires: ["AIza"],
  },
  {
    id: "private_key",
    source: "RFC 7468 PEM private key armor: the whole block, BEGIN line to END line",
    weight: 5,
    // The BEGIN line, then either everything up to the END line (the first `-----` after the
    // BEGIN line must start it; RFC 1421 headers such as `Proc-Type: 4,ENCRYPTED` included), or,
    // without an END line, the base64 lines after it (blanks or `\\` between them, for a key
    // pasted with escaped newlines; trailing blanks are not taken). The body scan stops at the
    // first `-----`, so each character is read by one block's scan and its backtracking, and
    // the base64 alternative is unambiguous (each repetition starts with a blank): linear time.
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----(?:(?:(?!-----)[\s\S])*-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=]*(?:[\s\\]+[A-Za-z0-9+/=]+)*)/g,
    requires: ["-----BEGIN"],
    secret: true,
  },
  {
    id: "jwt",
    source: "RFC 7519 JWT: three base64url parts, header JSON with alg",
    weight: 5,
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{8,}/g,
    requires: ["eyJ"],
    validate: (m) => jwtValid(m[0]),
    secret: true,
  },
];

/** A key's words, lower-cased: `"customerPhone_no"` is `["customer", "phone", "no"]`. */
function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Key words naming a phone number (`phone`, `customer_tel`, `mobileNumber`, `fax_no`, `msisdn`). */
const PHONE_KEY_WORDS = new Set([
  "phone",
  "phones",
  "telephone",
  "tel",
  "mobile",
  "mobiles",
  "cell",
  "cellphone",
  "fax",
  "msisdn",
  "whatsapp",
  "landline",
  "sms",
]);
/** Last key words that defer to the word before them (`phone_number`, `fax_no`). */
const NUMBER_WORDS = new Set(["number", "numbers", "no", "num", "nr"]);
/** Key words saying a number is something other than a card: ids, order numbers, times, counts. */
const NOT_CARD_KEY =
  /\b(?:ids?|uuid|order|invoice|ticket|tracking|part|sku|serial|ref|reference|booking|confirmation|case|account|barcode|isbn|request|transaction|seed|nonce|hash|index|count|total|tokens?|size|bytes|time|timestamp|ts|at|ms|us|ns|date|version)s?\b/;

/**
 * The detector id under which a JSON number (or a string of phone characters only) under the
 * object key `key` is personal data, or null. `digits`: the value's text (`String(n)` of a safe
 * integer, or the string). Used by the JSON masker (src/pii/mask.ts), where the key is the
 * only context such a value has; a value in an array takes the key of the array.
 *
 * - `credit_card`: 12-16 digits (every safe integer card; longer numbers lose digits in a JSON
 *   parser anyway), Luhn-valid and in a known issuer range (`knownIin`), as the text detector;
 *   and, as its ORDER_CONTEXT rule, not under a key saying it is an id, order or reference
 *   number, a time or a count (`NOT_CARD_KEY`) unless the key names a card (CARD_CONTEXT).
 *   Millisecond and microsecond timestamps (13 and 16 digits starting with 1) are in no issuer range.
 * - `phone`: 7-15 digits (ITU-T E.164) and a key that names a phone: its last word, or the word
 *   before a last `number`/`no`, is one of PHONE_KEY_WORDS. A bare number has no `+`, separator
 *   or leading zero to tell a phone (the text detectors' signals), so without such a key any
 *   10-digit count, price or id would look like one: token counts and latencies are never masked.
 */
export function jsonValuePii(digits: string, key: string): "credit_card" | "phone" | null {
  const plain = digits.replace(/\D/g, "");
  const words = keyWords(key);
  const text = words.join(" ");
  if (/^\d{12,16}$/.test(digits) && luhnValid(plain) && knownIin(plain) && (CARD_CONTEXT.test(text) || !NOT_CARD_KEY.test(text))) return "credit_card";
  const last = words.length > 1 && NUMBER_WORDS.has(words[words.length - 1] ?? "") ? words[words.length - 2] : words[words.length - 1];
  if (last !== undefined && PHONE_KEY_WORDS.has(last) && /^\+?[\d ().-]+$/.test(digits) && phoneDigits(digits)) return "phone";
  return null;
}
