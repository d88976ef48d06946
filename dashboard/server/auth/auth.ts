/**
 * Better Auth for the dashboard (https://www.better-auth.com): email + password accounts,
 * sessions in HttpOnly SameSite=Lax cookies (Secure except on http://localhost), the
 * organisation plugin with roles owner/admin/member/viewer, and sign-in throttling with
 * counters in PostgreSQL. Built per request because a Worker may not share a database
 * connection between requests (src/accounts/database.ts).
 */
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { organization } from "better-auth/plugins";
import type { AccountsDb } from "../../../src/accounts/database";
import { betterAuthSchema } from "../../../src/accounts/schema";
import type { DashboardConfig } from "../config";
import { hashPassword, verifyPassword } from "./password";
import { organizationRoles } from "./roles";

/** Path prefix of Better Auth's own routes (sign-up, sign-in, organisation...). */
export const AUTH_BASE_PATH = "/api/auth";

/**
 * Sign-in and sign-up attempts allowed per client IP and window (seconds). Five a minute lets a
 * person retry a typo and stops a password-guessing script at 7,200 tries a day per address.
 */
export const SIGN_IN_LIMIT = { window: 60, max: 5 };

/** Minimum password length: NIST SP 800-63B section 3.1.1.2 asks at least 8; we ask 10. */
export const MIN_PASSWORD_LENGTH = 10;

/** True for a plain-HTTP localhost URL (local development), where Secure cookies cannot be set. */
export const isLocalHttp = (url: string) => /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/.test(url);

/** Creates the request's Better Auth instance over the request's database handle. */
export function createAuth(config: DashboardConfig, db: AccountsDb) {
  return betterAuth({
    appName: "Sightline",
    baseURL: config.dashboardUrl,
    basePath: AUTH_BASE_PATH,
    secret: config.betterAuthSecret,
    trustedOrigins: [new URL(config.dashboardUrl).origin],
    database: drizzleAdapter(db, { provider: "pg", schema: betterAuthSchema }),
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      password: { hash: hashPassword, verify: verifyPassword },
    },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      customRules: { "/sign-in/email": SIGN_IN_LIMIT, "/sign-up/email": SIGN_IN_LIMIT },
    },
    advanced: {
      useSecureCookies: !isLocalHttp(config.dashboardUrl),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      // Cloudflare sets CF-Connecting-IP on every request and replaces any client value.
      ipAddress: { ipAddressHeaders: ["cf-connecting-ip"] },
    },
    telemetry: { enabled: false },
    plugins: [organization({ ...organizationRoles, creatorRole: "owner", invitationExpiresIn: 7 * 24 * 60 * 60 })],
  });
}

/** The request's Better Auth instance. */
export type Auth = ReturnType<typeof createAuth>;
