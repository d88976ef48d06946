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
import type { Db } from "../../../src/db/driver/client";
import { ApiError } from "../../../src/errors";
import { roleAtLeast, type Role } from "../../../src/enums";
import { personalDataFilter } from "../../../src/pii/views";

export { maskStoredText, STORED_TEXT_FIELDS } from "../../../src/pii/views";

/** The role needed to see personal data unmasked (and to read the reveal audit). */
export const REVEAL_ROLE: Role = "admin";

/**
 * Throws 403 naming the parameter when `role` may not reveal personal data and a text filter of
 * `query` contains some (`personalDataFilter`, src/pii/views.ts); otherwise returns.
 */
export async function assertSearchAllowed(db: Db, role: Role, query: Partial<Record<string, string>>): Promise<void> {
  if (roleAtLeast(role, REVEAL_ROLE)) return;
  const name = await personalDataFilter(db, query);
  if (name) throw new ApiError(403, `${name}: searching for personal data needs the ${REVEAL_ROLE} role or higher`);
}
