/**
 * Personal data in what the dashboard shows (issue 26.2): every path that returns stored text
 * (the request list, the detail, the export through the API) masks it with the one function the
 * export uses (`maskPiiJson`, src/export/mask-pii.ts: each span the PII detectors find becomes
 * `[KIND]`). Only an owner or admin may see it unmasked (`reveal=true`, recorded in the audit).
 *
 * A text search (`q=`) by someone who may not reveal must not confirm that a masked value
 * exists: a `q` in which the detectors find personal data is refused with 403 whatever the
 * data holds, so the answer says nothing about the rows.
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

/**
 * Throws 403 when `role` may not reveal personal data and the search text `q` contains some
 * (the detectors find a span in it); otherwise returns.
 */
export function assertSearchAllowed(role: Role, q: string | undefined): void {
  if (!q || roleAtLeast(role, REVEAL_ROLE)) return;
  if (maskPiiText(q) !== q) throw new ApiError(403, `q: searching for personal data needs the ${REVEAL_ROLE} role or higher`);
}
