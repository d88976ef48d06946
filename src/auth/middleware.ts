/**
 * Authentication middleware (interface spec, section 5; DESIGN.md "API keys", "Internal secret").
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppBindings } from "../env";
import { ApiError, unauthorized } from "../errors";
import { lookupKey } from "../db/keys";
import { hashKey, KEY_PATTERN } from "./keys";
import { secretsEqual } from "./secret";

/** Header of the dashboard's server-to-server secret. */
export const INTERNAL_SECRET_HEADER = "X-Internal-Secret";

/** The presented API key: `X-Service-Key` (preferred) or `Authorization: Bearer <key>`. */
export function presentedKey(c: Context): string | undefined {
  const header = c.req.header("X-Service-Key")?.trim();
  if (header) return header;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("Authorization") ?? "");
  return match?.[1];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const REFUSED: Record<"unknown" | "revoked" | "expired", string> = {
  unknown: "invalid API key",
  revoked: "API key has been revoked",
  expired: "API key has expired (it was rotated)",
};

/** The presented API key, checked for presence and format only (no database access). */
function wellFormedKey(c: Context): string {
  const key = presentedKey(c);
  if (!key) throw unauthorized("missing API key: send X-Service-Key: <key> or Authorization: Bearer <key>");
  if (!KEY_PATTERN.test(key)) throw unauthorized(REFUSED.unknown);
  return key;
}

async function projectFromKey(c: Context<AppBindings>): Promise<string> {
  const found = await lookupKey(c.var.db, await hashKey(wellFormedKey(c)));
  if (!found.ok) throw unauthorized(REFUSED[found.reason]);
  return found.projectId;
}

/** The 401 for a key that `lookupKey` refused (unknown, revoked, or expired after rotation). */
export function keyRefused(reason: keyof typeof REFUSED): ApiError {
  return unauthorized(REFUSED[reason]);
}

function checkInternalSecret(c: Context<AppBindings>, presented: string): Promise<void> {
  return secretsEqual(presented, c.env.INTERNAL_API_SECRET).then((ok) => {
    if (!ok) throw unauthorized("invalid internal secret");
  });
}

/** The project named by `project_id` with a valid internal secret, or null without the header. */
async function internalCaller(c: Context<AppBindings>): Promise<string | null> {
  const secret = c.req.header(INTERNAL_SECRET_HEADER);
  const requested = c.req.query("project_id");
  if (requested !== undefined && !UUID.test(requested)) throw new ApiError(422, "project_id: must be a UUID");
  if (secret === undefined) return null;
  await checkInternalSecret(c, secret);
  if (!requested) throw new ApiError(422, "project_id: required with X-Internal-Secret");
  return requested.toLowerCase();
}

/**
 * Opens a project's data: an API key (its project; a different `project_id` in the query
 * answers 404) or the internal secret with `project_id` (query) naming the project.
 * Sets `c.var.projectId` and `c.var.authKind`.
 */
export function projectAuth(): MiddlewareHandler<AppBindings> {
  return async function projectAuth(c, next) {
    const internal = await internalCaller(c);
    if (internal) {
      c.set("projectId", internal);
      c.set("authKind", "internal");
      return next();
    }
    const projectId = await projectFromKey(c);
    const requested = c.req.query("project_id");
    if (requested && requested.toLowerCase() !== projectId) throw new ApiError(404, "project not found");
    c.set("projectId", projectId);
    c.set("authKind", "api_key");
    return next();
  };
}

/**
 * Authentication of POST /internal/log, the hot path. The internal secret with `project_id`
 * is checked here; an API key only for presence and format, and its SHA-256 goes on
 * `c.var.credential` so that the ingest statement resolves it in the same round trip
 * (`src/db/ingest.ts`), which answers 401 itself when the key is unknown, revoked or expired.
 * A well-formed but unknown key with an invalid body therefore gets 422, not 401.
 */
export function logAuth(): MiddlewareHandler<AppBindings> {
  return async function logAuth(c, next) {
    const internal = await internalCaller(c);
    if (internal) {
      c.set("credential", { projectId: internal });
      c.set("authKind", "internal");
      return next();
    }
    c.set("credential", { keyHash: await hashKey(wellFormedKey(c)) });
    c.set("authKind", "api_key");
    return next();
  };
}

/**
 * Opens a route to an API key only (no internal secret): unknown, revoked and expired keys get
 * 401 with the reason. Sets `c.var.projectId` and `c.var.authKind`. Used by the capture proxy's
 * key check (GET /internal/keys/check), where the key is the only thing being asked about.
 */
export function keyAuth(): MiddlewareHandler<AppBindings> {
  return async function keyAuth(c, next) {
    c.set("projectId", await projectFromKey(c));
    c.set("authKind", "api_key");
    return next();
  };
}

/** Opens the /internal administration routes to the internal secret only. */
export function internalAuth(): MiddlewareHandler<AppBindings> {
  return async function internalAuth(c, next) {
    const secret = c.req.header(INTERNAL_SECRET_HEADER);
    if (secret === undefined) throw unauthorized(`missing ${INTERNAL_SECRET_HEADER} header`);
    await checkInternalSecret(c, secret);
    c.set("authKind", "internal");
    return next();
  };
}
