/**
 * Personal data in what the dashboard shows (issue 26.2): every path that returns stored text
 * (the request list, the detail, the export through the API) masks it with the one function the
 * export uses (`maskPiiJson`, src/pii/mask.ts: each span the PII detectors find becomes
 * `[KIND]`). Only an owner or admin may see it unmasked (`reveal=true`, recorded in the audit).
 *
 * A text search (`q=`, or the exact `model=`/`provider=` filters) by someone who may not reveal
 * must not confirm that a masked value exists: such a filter in which the detectors find
 * personal data is refused with 403 whatever the data holds, so the answer says nothing about
 * the rows. (A fragment that is no personal data by itself, e.g. one group of a card number's
 * digits, is not refused; it matches words, as any search does.)
 *
 * The judgement of a search and the reveal audit are the API's (issue 35.1, one owner per table:
 * `pii_reveals` and the search lexemes live in its database), asked over /internal
 * (workers/api/src/routes/pii-reveals.ts); who may reveal is decided here, by role.
 */
import { ApiError } from "../../../src/http/errors";
import { roleAtLeast, type Role } from "../../../src/enums";
import type { DashboardConfig } from "../config";
import type { PiiReveal } from "../contract";
import type { SessionUser } from "../env";
import { apiClient, unwrap } from "./api-client";

export { maskStoredText } from "../../../src/pii/views";

/** The part of the config that reaches the API. */
type ApiConfig = Pick<DashboardConfig, "api" | "internalApiSecret">;

/** The role needed to see personal data unmasked (and to read the reveal audit). */
export const REVEAL_ROLE: Role = "admin";

/**
 * Throws 403 naming the parameter when `role` may not reveal personal data and a text filter of
 * `query` contains some (the API's judgement, POST /internal/pii/search-check); otherwise returns.
 */
export async function assertSearchAllowed(config: ApiConfig, role: Role, query: Partial<Record<string, string>>): Promise<void> {
  if (roleAtLeast(role, REVEAL_ROLE)) return;
  const json = { q: query.q, model: query.model, provider: query.provider };
  const { filter } = await unwrap(apiClient(config).internal.pii["search-check"].$post({ json }));
  if (filter) throw new ApiError(403, `${filter}: searching for personal data needs the ${REVEAL_ROLE} role or higher`);
}

/** Records in the API's audit that `user` saw the requests `requestIds` of `projectId` unmasked (before they are shown). */
export async function recordReveals(config: ApiConfig, projectId: string, requestIds: string[], user: SessionUser): Promise<void> {
  const reveals = apiClient(config).internal.projects[":project_id"]["pii-reveals"];
  await unwrap(reveals.$post({ param: { project_id: projectId }, json: { request_ids: requestIds, user: { id: user.id, email: user.email } } }));
}

/** The project's reveals from the API's audit, newest first (of one request when `requestId` is given). */
export async function listReveals(config: ApiConfig, projectId: string, requestId?: string): Promise<PiiReveal[]> {
  const reveals = apiClient(config).internal.projects[":project_id"]["pii-reveals"];
  return (await unwrap(reveals.$get({ param: { project_id: projectId }, query: requestId ? { request_id: requestId } : {} }))).items;
}
