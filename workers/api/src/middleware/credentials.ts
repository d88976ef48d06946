/**
 * What a request presents as credentials and how each is checked (docs/interface.md section 5;
 * docs/decisions.md D8 and D9): the API key (with its scopes, issue 32), the internal secret with
 * `project_id`. The middleware factories that attach them to routes are in ../middleware/.
 */
import type { Context } from "hono";
import type { AppBindings } from "../env";
import { ApiError, unauthorized } from "../../../../src/http/errors";
import { lookupKey, type KeyLookup } from "../../../../src/db/keys";
import { API_KEY_SCOPES, type ApiKeyScope } from "../../../../src/enums";
import { hashKey, KEY_PATTERN } from "../../../../src/auth/keys";
import { secretsEqual } from "../../../../src/auth/secret";
import { isUuid } from "../../../../src/util";

/** Header of the dashboard's server-to-server secret. */
export const INTERNAL_SECRET_HEADER = "X-Internal-Secret";

/** The presented API key: `X-Service-Key` (preferred) or `Authorization: Bearer <key>`. */
export function presentedKey(c: Context): string | undefined {
  const header = c.req.header("X-Service-Key")?.trim();
  if (header) return header;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("Authorization") ?? "");
  return match?.[1];
}

const REFUSED: Record<"unknown" | "revoked" | "expired", string> = {
  unknown: "invalid API key",
  revoked: "API key has been revoked",
  expired: "API key has expired (it was rotated)",
};

/** The presented API key, checked for presence and format only (no database access). */
export function wellFormedKey(c: Context): string {
  const key = presentedKey(c);
  if (!key) throw unauthorized("missing API key: send X-Service-Key: <key> or Authorization: Bearer <key>");
  if (!KEY_PATTERN.test(key)) throw unauthorized(REFUSED.unknown);
  return key;
}

/** An accepted API key: its project, its id and its scopes. */
export type AcceptedKey = Extract<KeyLookup, { ok: true }>;

/** The presented API key as `lookupKey` found it; 401 when it is missing, unknown, revoked or expired. */
export async function acceptedKey(c: Context<AppBindings>): Promise<AcceptedKey> {
  const found = await lookupKey(c.var.db, await hashKey(wellFormedKey(c)));
  if (!found.ok) throw unauthorized(REFUSED[found.reason]);
  return found;
}

/** The 403 for an API key without the scope a route needs (issue 32). */
export function missingScope(scope: ApiKeyScope): ApiError {
  return new ApiError(403, `this API key lacks the ${scope} scope`);
}

/**
 * Sets what the auth middleware tells the routes about the caller: `authKind`, `scopes` (every
 * scope for the internal secret: the dashboard server checks its users' roles itself) and
 * `apiKeyId` (null for the internal secret).
 */
export function setCaller(c: Context<AppBindings>, key: AcceptedKey | "internal"): void {
  if (key === "internal") {
    c.set("authKind", "internal");
    c.set("scopes", API_KEY_SCOPES);
    c.set("apiKeyId", null);
    return;
  }
  c.set("authKind", "api_key");
  c.set("scopes", key.scopes);
  c.set("apiKeyId", key.keyId);
}

/**
 * Admits an accepted API key to a route that needs `scope`: sets `c.var.projectId` to the key's
 * project and the caller (`setCaller`), then throws the 403 of `missingScope` unless the key holds `scope`.
 */
export function admitKey(c: Context<AppBindings>, key: AcceptedKey, scope: ApiKeyScope): void {
  c.set("projectId", key.projectId);
  setCaller(c, key);
  if (!key.scopes.includes(scope)) throw missingScope(scope);
}

/** The 401 for a key that `lookupKey` refused (unknown, revoked, or expired after rotation). */
export function keyRefused(reason: keyof typeof REFUSED): ApiError {
  return unauthorized(REFUSED[reason]);
}

/** Resolves when `presented` is the internal secret; 401 otherwise. */
export function checkInternalSecret(c: Context<AppBindings>, presented: string): Promise<void> {
  return secretsEqual(presented, c.var.config.internalApiSecret).then((ok) => {
    if (!ok) throw unauthorized("invalid internal secret");
  });
}

/** The project named by `project_id` with a valid internal secret, or null without the header. */
export async function internalCaller(c: Context<AppBindings>): Promise<string | null> {
  const secret = c.req.header(INTERNAL_SECRET_HEADER);
  const requested = c.req.query("project_id");
  if (requested !== undefined && !isUuid(requested)) throw new ApiError(422, "project_id: must be a UUID");
  if (secret === undefined) return null;
  await checkInternalSecret(c, secret);
  if (!requested) throw new ApiError(422, "project_id: required with X-Internal-Secret");
  return requested.toLowerCase();
}
