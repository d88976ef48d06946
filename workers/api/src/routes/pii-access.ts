import type { Context } from "hono";
import { missingScope } from "../middleware/credentials";
import type { AppBindings } from "../env";
import { ApiError } from "../../../../src/http/errors";
import { recordReveals } from "../../../../src/pii/reveals";
import { maskStoredText, personalDataFilter, STORED_TEXT_FIELDS } from "../../../../src/pii/views";

/** True when the caller is an API key without the `admin` scope (sees personal data masked). */
function maskedCaller(c: Context<AppBindings>): boolean {
  return c.var.authKind === "api_key" && !c.var.scopes.includes("admin");
}

/** The query parameters `assertReadAllowed` judges. */
export interface ReadQuery {
  q?: string | undefined;
  model?: string | undefined;
  provider?: string | undefined;
  reveal?: "true" | "false" | undefined;
}

/**
 * For an API key without `admin`, before anything is read: 403 for `reveal=true`
 * (`missingScope("admin")`), and 403 naming the parameter when a text filter of `query` holds
 * personal data (`personalDataFilter`). Returns for everyone else.
 */
export async function assertReadAllowed(c: Context<AppBindings>, query: ReadQuery): Promise<void> {
  if (!maskedCaller(c)) return;
  if (query.reveal === "true") throw missingScope("admin");
  const name = await personalDataFilter(c.var.db, { q: query.q, model: query.model, provider: query.provider });
  if (name) throw new ApiError(403, `${name}: searching for personal data needs an API key with the admin scope`);
}

/**
 * `records` as the caller may see them: raw for the internal secret; for an API key, masked
 * unless `reveal` (which `assertReadAllowed` let through only for the `admin` scope), in which
 * case the raw read of each record is recorded in the audit first, naming the key. `records`
 * carry their request `id`.
 */
export async function shownToCaller<T extends { id: string }>(c: Context<AppBindings>, records: T[], reveal: boolean): Promise<T[]> {
  if (c.var.authKind !== "api_key") return records;
  if (!reveal || maskedCaller(c)) return records.map(maskStoredText);
  await recordReveals(
    c.var.db,
    c.var.projectId,
    records.map((r) => r.id),
    { apiKeyId: c.var.apiKeyId! },
    STORED_TEXT_FIELDS,
  );
  return records;
}
