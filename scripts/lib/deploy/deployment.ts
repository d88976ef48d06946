/**
 * The one switch between a managed and a self-hosted deployment: SIGHTLINE_DEPLOYMENT =
 * "managed" | "self-hosted" (default). It decides the API worker's variables that differ
 * (README "Deploy", table "Managed vs self-hosted"); each can still be set explicitly in the
 * environment of `npm run deploy`, which wins.
 * - /docs: served on self-hosted instances only (docs/interface.md sections 1.6 and 4.10).
 * - Billing: sold on the managed deployment (Stripe secrets and price ids required); on a
 *   self-hosted instance only when the operator provides STRIPE_SECRET_KEY.
 * - Tier limits: those of docs/interface.md section 8 on managed; on self-hosted nothing is sold, so the free tier is
 *   unlimited unless TIER_LIMITS says otherwise.
 */

/** Kind of deployment. */
export type DeploymentKind = "managed" | "self-hosted";

/** The kind named by SIGHTLINE_DEPLOYMENT (default self-hosted); throws on any other value. */
export function deploymentKind(env: Record<string, string | undefined> = process.env): DeploymentKind {
  const value = (env.SIGHTLINE_DEPLOYMENT || "self-hosted").trim();
  if (value !== "managed" && value !== "self-hosted") throw new Error(`SIGHTLINE_DEPLOYMENT must be "managed" or "self-hosted", not ${JSON.stringify(value)}`);
  return value;
}

/** Whether billing is sold: always on managed, on self-hosted when a Stripe key is given. */
export const sellsBilling = (kind: DeploymentKind, env: Record<string, string | undefined> = process.env): boolean =>
  kind === "managed" || !!env.STRIPE_SECRET_KEY;

/** Billing variables read from the environment when billing is sold. */
const BILLING_VARS = ["STRIPE_PRICE_PRO", "STRIPE_PRICE_TEAM", "STRIPE_PRICE_ENTERPRISE", "BILLING_RETURN_ORIGINS", "STRIPE_API_BASE"] as const;

/**
 * The API worker's variables for `kind` (merged over wrangler.jsonc's `vars`). Throws when
 * the managed deployment lacks what selling needs (the pro price id, return origins).
 */
export function deploymentVars(kind: DeploymentKind, env: Record<string, string | undefined> = process.env): Record<string, string> {
  const vars: Record<string, string> = {
    DOCS_ENABLED: env.DOCS_ENABLED || (kind === "self-hosted" ? "true" : "false"),
    TIER_LIMITS: env.TIER_LIMITS ?? (kind === "self-hosted" ? JSON.stringify({ free: null }) : ""),
  };
  if (env.LOG_MAX_BYTES) vars.LOG_MAX_BYTES = env.LOG_MAX_BYTES;
  if (sellsBilling(kind, env)) {
    for (const name of BILLING_VARS) if (env[name]) vars[name] = env[name]!;
    if (kind === "managed") {
      const missing = ["STRIPE_PRICE_PRO", "BILLING_RETURN_ORIGINS"].filter((n) => !env[n]);
      if (missing.length) throw new Error(`a managed deployment sells billing: set ${missing.join(", ")}`);
    }
  }
  return vars;
}
