/** Better Auth's browser client (same origin: /api/auth) with the organisation plugin. */
import { organizationClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";
import { organizationRoles } from "../../server/auth/roles";

export const authClient = createAuthClient({ basePath: "/api/auth", plugins: [organizationClient(organizationRoles)] });

/** A user-facing sentence for a Better Auth error (never which accounts exist on sign-in). */
export function authErrorMessage(error: { status?: number; code?: string; message?: string }, action: "sign-in" | "sign-up"): string {
  if (error.status === 429) return "Too many attempts. Wait a minute, then try again.";
  if (action === "sign-in") return "Wrong email or password.";
  if (error.code === "USER_ALREADY_EXISTS" || error.code === "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL")
    return "This email cannot be used for a new account. If it is yours, sign in instead.";
  if (error.code === "PASSWORD_TOO_SHORT") return "The password is too short: use at least 10 characters.";
  if (error.code === "INVALID_EMAIL") return "Enter a valid email address.";
  return error.message || "Something went wrong. Try again.";
}
