/**
 * Personal data in what Sightline shows to someone who may not see it raw (issue 26.2, 32): every
 * path that returns stored text (the request list, the detail, the export) masks it with the one
 * function the export uses (`maskPiiJson`, src/pii/mask.ts: each span the PII detectors find
 * becomes `[KIND]`), and a text search by such a caller must not confirm that a masked value exists.
 * Used by the dashboard server (roles below admin) and the API (keys without the `admin` scope).
 */
import type { Db } from "../db/driver/client";
import { MAX_QUERY_CHARS } from "../db/search-config";
import { searchLexemes } from "../db/search-query";
import { maskPiiJson, maskPiiText } from "./mask";

/** Fields of a request record that hold text the caller stored (bodies, metadata, model, provider, the preview of the last user turn). */
export const STORED_TEXT_FIELDS = ["model", "provider", "metadata", "request_body", "response_body", "preview"] as const;

/** A copy of `record` with every stored-text field present masked by `maskPiiJson`. */
export function maskStoredText<T extends object>(record: T): T {
  const out = { ...record } as Record<string, unknown>;
  for (const field of STORED_TEXT_FIELDS) if (field in out) out[field] = maskPiiJson(out[field]);
  return out as T;
}

/** Query parameters that match stored text. */
export const TEXT_FILTERS = ["q", "model", "provider"] as const;

/**
 * The first text filter of `query` (`q`, `model`, `provider`) that searches for personal data,
 * or null. A caller who may not see personal data is refused such a search (403) whatever the
 * rows hold, so the answer says nothing about them.
 *
 * What is judged is what PostgreSQL searches for (issue 32.3), not only the raw string: `q` is
 * read by `websearch_to_tsquery` (src/db/search-query.ts), whose parser drops characters the
 * detectors lean on (`+jane@example.com` and `%jane@example.com` search for the address;
 * `4111,1111,1111,1111` for the card's four groups in a row). So `q` is refused when the
 * detectors (`maskPiiText`) find personal data in the raw string, or in a run of consecutive
 * lexemes of the query (`searchLexemes`, one round trip to `db`; up to MAX_GROUPS of them)
 * joined with spaces, joined with nothing (lexemes such as `4111` `-1111` `-1111` `-1111`
 * read back as one number), or joined with spaces without the `-` the parser keeps before a
 * number (`(415) 555-0132` is searched as `415` `555` `-0132`). `model` and `provider` are
 * exact-match filters: judged as written. A fragment that is no personal data by itself (one
 * group of a card's digits, a first name) is not refused: it matches words, as any search does.
 * Values that only context makes personal data (a national phone number without a word such as
 * "phone" before it) are not recognised in a query either.
 */
export async function personalDataFilter(db: Db, query: Partial<Record<string, string>>): Promise<(typeof TEXT_FILTERS)[number] | null> {
  for (const name of TEXT_FILTERS) {
    const text = query[name];
    if (!text) continue;
    if (holdsPersonalData(text)) return name;
    // A longer `q` is refused by the API's validation (422) whatever is stored: never searched.
    if (name !== "q" || text.trim().length > MAX_QUERY_CHARS) continue;
    const lexemes = await searchLexemes(db, text);
    for (let i = 0; i < lexemes.length; i++) {
      for (let j = i + 1; j <= Math.min(lexemes.length, i + MAX_GROUPS); j++) {
        const run = lexemes.slice(i, j);
        const unsigned = run.map((l) => l.replace(/^-(?=\d)/, ""));
        if (holdsPersonalData(run.join(" ")) || holdsPersonalData(run.join("")) || holdsPersonalData(unsigned.join(" "))) return name;
      }
    }
  }
  return null;
}

/**
 * The most lexemes one value is searched as: an IBAN of 34 characters in groups of 4 is 9
 * (cards, phones and addresses are fewer). Every run of up to this many consecutive lexemes of
 * a query is judged on its own, so neighbouring numbers do not run into a value and hide it
 * ("item 1 4111 1111 1111 1111"); a `q` judged so has at most MAX_QUERY_CHARS characters, so at
 * most 250 lexemes and 2,250 runs.
 */
const MAX_GROUPS = 9;

/** Whether the PII detectors find something in `text` (the masker would change it). */
const holdsPersonalData = (text: string) => maskPiiText(text) !== text;
