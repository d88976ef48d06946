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

async function projectFromKey(c: Context<AppBindings>): Promise<string> {
  const key = presentedKey(c);
  if (!key) throw unauthorized("missing API key: send X-Service-Key: <key> or Authorization: Bearer <key>");
  if (!KEY_PATTERN.test(key)) throw unauthorized(REFUSED.unknown);
  const found = await lookupKey(c.var.db, await hashKey(key));
  if (!found.ok) throw unauthorized(REFUSED[found.reason]);
  return found.projectId;
}

function checkInternalSecret(c: Context<AppBindings>, presented: string): Promise<void> {
  return secretsEqual(presented, c.env.INTERNAL_API_SECRET).then((ok) => {
    if (!ok) throw unauthorized("invalid internal secret");
  });
}

/**
 * Opens a project's data: an API key (its project; a different `project_id` in the query
 * answers 404) or the internal secret with `project_id` (query) naming the project.
 * Sets `c.var.projectId` and `c.var.authKind`.
 */
export function projectAuth(): MiddlewareHandler<AppBindings> {
  return async function projectAuth(c, next) {
    const secret = c.req.header(INTERNAL_SECRET_HEADER);
    const requested = c.req.query("project_id");
    if (requested !== undefined && !UUID.test(requested)) throw new ApiError(422, "project_id: must be a UUID");
    if (secret !== undefined) {
      await checkInternalSecret(c, secret);
      if (!requested) throw new ApiError(422, "project_id: required with X-Internal-Secret");
      c.set("projectId", requested.toLowerCase());
      c.set("authKind", "internal");
      return next();
    }
    const projectId = await projectFromKey(c);
    if (requested && requested.toLowerCase() !== projectId) throw new ApiError(404, "project not found");
    c.set("projectId", projectId);
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
