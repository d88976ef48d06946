/**
 * Personal data in the request views for API keys (issue 32): what an API key reads of stored
 * text (the request list, its keyset pages, the detail) is masked (`maskStoredText`,
 * src/pii/views.ts) unless the key has the `admin` scope and the caller asks `reveal=true` (the
 * dashboard server's parameter name); such a raw read is audited first, naming the key
 * (src/pii/reveals.ts). `reveal=true` without `admin` is 403. A text search (`q`, `model`,
 * `provider`) in which the PII detectors find personal data is 403 for a key without `admin`,
 * as for a dashboard viewer (dashboard/server/lib/pii.ts), so a count cannot confirm a masked value.
 *
 * The internal secret (the dashboard server) is unchanged: it reads raw and masks for its users
 * by their role itself.
 */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { missingScope } from "../middleware/credentials";
import type { AppBindings } from "../env";
import { ApiError } from "../../../../src/http/errors";
import { recordReveals } from "../../../../src/pii/reveals";
import { maskStoredText, personalDataFilter, STORED_TEXT_FIELDS } from "../../../../src/pii/views";

/** `reveal`: ask for stored text unmasked (API keys with the `admin` scope; audited). */
export const RevealQuery = z.object({
  reveal: z.enum(["true", "false"]).default("false").openapi({
    description:
      "`true`: show stored text unmasked. API keys need the `admin` scope (403 otherwise) and each raw read is recorded in the reveal audit; without it, keys read personal data masked as `[KIND]`.",
  }),
});

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
