/**
 * Personal data in what the dashboard shows (issue 26.2): every path that returns stored text
 * (the request list, the detail, the export through the API) masks it with the one function the
 * export uses (`maskPiiJson`, src/export/mask-pii.ts: each span the PII detectors find becomes
 * `[KIND]`). Only an owner or admin may see it unmasked (`reveal=true`, recorded in the audit).
 *
 * A text search (`q=`, or the exact `model=`/`provider=` filters) by someone who may not reveal
 * must not confirm that a masked value exists: such a filter in which the detectors find
 * personal data is refused with 403 whatever the data holds, so the answer says nothing about
 * the rows. (A fragment that is no personal data by itself, e.g. one group of a card number's
 * digits, is not refused; it matches words, as any search does.)
 */
import { ApiError } from "../../../src/errors";
import { maskPiiJson, maskPiiText } from "../../../src/export/mask-pii";
import { roleAtLeast, type Role } from "../../../src/enums";

/** The role needed to see personal data unmasked (and to read the reveal audit). */
export const REVEAL_ROLE: Role = "admin";

/** Fields of a request record that hold text the caller stored (bodies, metadata, model, provider). */
export const STORED_TEXT_FIELDS = ["model", "provider", "metadata", "request_body", "response_body"] as const;

/** A copy of `record` with every stored-text field present masked by `maskPiiJson`. */
export function maskStoredText<T extends object>(record: T): T {
  const out = { ...record } as Record<string, unknown>;
  for (const field of STORED_TEXT_FIELDS) if (field in out) out[field] = maskPiiJson(out[field]);
  return out as T;
}

/** Query parameters that match stored text. */
export const TEXT_FILTERS = ["q", "model", "provider"] as const;

/**
 * Throws 403 naming the parameter when `role` may not reveal personal data and a text filter of
 * `query` contains some (the detectors find a span in it); otherwise returns.
 */
export function assertSearchAllowed(role: Role, query: Partial<Record<string, string>>): void {
  if (roleAtLeast(role, REVEAL_ROLE)) return;
  for (const name of TEXT_FILTERS) {
    const text = query[name];
    if (text && maskPiiText(text) !== text) throw new ApiError(403, `${name}: searching for personal data needs the ${REVEAL_ROLE} role or higher`);
  }
}
