import type { z } from "zod";
import type { ApiConfig, apiVars } from "../../../src/config/api";
import type { Db } from "../../../src/db/driver/client";
import type { IngestCredential } from "../../../src/db/ingest";
import type { ApiKeyScope } from "../../../src/enums";

/**
 * Bindings of the API worker, declared once: `Env`, generated from wrangler.jsonc by
 * `npm run types` (wrangler types), joined with what the config schema reads as it arrives
 * (`apiVars`, src/config/api.ts), which adds the optional secrets and variables that are not
 * in wrangler.jsonc (DATABASE_URL, NEON_WSPROXY, TIER_RETENTION_DAYS, STRIPE_SECRET_KEY,
 * PAYMENT_WEBHOOK_SECRET, the alert settings). A new variable goes into `apiVars`, not here.
 * Code reads none of them directly: src/config/api.ts parses them once into `c.var.config`.
 */
export type AppEnv = Env & z.input<typeof apiVars>;

/** Variables set on the Hono context by the database and auth middleware. */
export interface AppVariables {
  /** The worker's configuration, parsed once per env object (workers/api/src/middleware/config.ts). */
  config: ApiConfig;
  /** The request's database (see `database()` middleware). */
  db: Db;
  /** The project the caller may reach. */
  projectId: string;
  /** How the caller authenticated. */
  authKind: "api_key" | "internal";
  /**
   * What the caller may do (issue 32): an API key's scopes, or every scope for the internal
   * secret (the dashboard server checks its users' roles itself). Not set on POST /internal/log,
   * whose key the ingest statement resolves.
   */
  scopes: readonly ApiKeyScope[];
  /** The id of the caller's API key (for the audit of raw reads), or null for the internal secret. */
  apiKeyId: string | null;
  /** The request's id (hono/request-id, workers/api/src/middleware/request-log.ts), also sent as `X-Request-Id`. */
  requestId: string;
  /** POST /internal/log only: the project, or the key hash the ingest statement resolves. */
  credential: IngestCredential;
  /** Strings of the JSON body in which NUL or lone surrogates became U+FFFD (`middleware/json-input.ts`). */
  textReplaced: number;
}

/** Hono type parameters of every Sightline sub-app. */
export interface AppBindings {
  Bindings: AppEnv;
  Variables: AppVariables;
}
