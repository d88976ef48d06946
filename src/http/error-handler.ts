/**
 * Renders every failure as `{"detail": ...}` (docs/decisions.md D11): ApiError and Hono's
 * HTTPException with their status; invalid variables (ConfigError) as 500 naming them; an
 * unreachable database or body storage (R2, src/bodies/) as 503; anything else as 500
 * with a generic message (the error itself goes to the log, never into the response). Part of
 * the Hono kit both servers use (the API worker and the dashboard server).
 */
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isDatabaseUnavailable } from "../db/driver/unavailable";
import { ConfigError } from "../config/error";
import { ApiError, DATABASE_RETRY_AFTER_SECONDS } from "./errors";
import { logError } from "../logger";
import { BodyStorageError } from "../bodies/bucket";

/** `app.onError` handler of any Hono app (it reads no variables: the API and the dashboard server share it). */
export const renderError: ErrorHandler = (err, c) => {
  if (err instanceof ApiError) return c.json({ detail: err.detail }, err.status, err.headers);
  if (err instanceof HTTPException) {
    const detail = err.status === 400 && /json/i.test(err.message) ? "malformed JSON in request body" : err.message || "request refused";
    return c.json({ detail }, err.status as ContentfulStatusCode);
  }
  if (err instanceof ConfigError) {
    logError("server configuration is invalid", { method: c.req.method, problems: err.message });
    return c.json({ detail: err.detail }, 500);
  }
  if (isDatabaseUnavailable(err)) {
    logError("database unavailable", { method: c.req.method, route: c.req.routePath }, err);
    return c.json({ detail: "the database is unavailable, try again later" }, 503, { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) });
  }
  if (err instanceof BodyStorageError) {
    logError("body storage unavailable", { method: c.req.method, route: c.req.routePath }, err);
    return c.json({ detail: "body storage is unavailable, try again later" }, 503, { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) });
  }
  logError("unhandled error", { method: c.req.method, route: c.req.routePath }, err);
  return c.json({ detail: "internal server error" }, 500);
};

/** `app.notFound` handler: 404 `{detail}` naming the method and path. */
export const routeNotFound: NotFoundHandler = (c: Context) => c.json({ detail: `no route for ${c.req.method} ${c.req.path}` }, 404);
