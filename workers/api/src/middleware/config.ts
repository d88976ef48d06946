/**
 * `c.var.config` for every request of the API: the worker's config parsed once per env object
 * (src/config/api.ts). Invalid variables throw `ConfigError`, which `renderError` answers with
 * 500 `{"detail": "server configuration is invalid: ..."}` and logs.
 */
import type { MiddlewareHandler } from "hono";
import type { AppBindings } from "../env";
import { apiConfig } from "../../../../src/config/api";

/** Sets `c.var.config`; first after the request log, so every later middleware can read it. */
export function config(): MiddlewareHandler<AppBindings> {
  return async function config(c, next) {
    c.set("config", apiConfig(c.env));
    await next();
  };
}
