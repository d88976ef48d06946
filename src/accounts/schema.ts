/**
 * Better Auth's tables (https://www.better-auth.com/docs/concepts/database): users, sessions,
 * password accounts, verification tokens, the organisation plugin's organisations, members and
 * invitations, and the sign-in rate-limit counters, in the same PostgreSQL as the API's data.
 * The JS property names are the field names Better Auth's drizzle adapter asks for; the SQL
 * names are snake_case and prefixed `auth_` so they never meet the API's tables.
 *
 * Owner (docs/architecture.md, "Who owns which table"): the dashboard server, through Better
 * Auth, is the only writer (and `npm run dev`'s seeding, which creates the unclaimed demo
 * organisation, ./demo.ts). The API reads `auth_organization` and `auth_member` to answer the
 * dashboard's membership questions (src/db/memberships.ts) and writes none of these tables.
 * Outside src/db/ so that the dashboard server can name them without importing the API's
 * data layer; drizzle-kit reads this file too (drizzle.config.ts).
 */
import type { BuildExtraConfigColumns } from "drizzle-orm";
import { bigint, boolean, index, integer, type PgColumnBuilderBase, type PgTableExtraConfigValue, pgTable, text } from "drizzle-orm/pg-core";
import { ownedBy, timestamptz, timestamptzNow } from "../db/schema/columns";

/** `id text PRIMARY KEY`: Better Auth chooses its records' ids. */
const textId = () => ({ id: text("id").primaryKey() });

/** `columns` after `textId`'s. */
type WithId<C> = ReturnType<typeof textId> & C;

/** A Better Auth table `name`: `id text PRIMARY KEY` (`textId`), then `columns`; `extraConfig` as `pgTable`'s (indexes). */
function authTable<N extends string, C extends Record<string, PgColumnBuilderBase>>(
  name: N,
  columns: C,
  extraConfig?: (self: BuildExtraConfigColumns<N, WithId<C>, "pg">) => PgTableExtraConfigValue[],
) {
  return pgTable<N, WithId<C>>(name, { ...textId(), ...columns }, extraConfig);
}

/** `<name> text NOT NULL`, a foreign key to `auth_user.id` deleted with the user. */
const ownedByUser = (name: string) => ownedBy(text(name).notNull(), () => authUser.id);

/** `organization_id text NOT NULL`, a foreign key to `auth_organization.id` deleted with the organisation. */
export const ownedByOrganization = () => ownedBy(text("organization_id").notNull(), () => authOrganization.id);

/** A dashboard account (email + password). */
export const authUser = authTable("auth_user", {
  name: text("name").notNull(),
  email: text("email").notNull().unique("auth_user_email_key"),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: timestamptzNow("created_at"),
  updatedAt: timestamptzNow("updated_at"),
});

/** A signed-in browser: the cookie carries `token` (signed). */
export const authSession = authTable(
  "auth_session",
  {
    expiresAt: timestamptz("expires_at").notNull(),
    token: text("token").notNull().unique("auth_session_token_key"),
    createdAt: timestamptzNow("created_at"),
    updatedAt: timestamptz("updated_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: ownedByUser("user_id"),
    /** Organisation plugin: the organisation the session works in. */
    activeOrganizationId: text("active_organization_id"),
  },
  (t) => [index("auth_session_user_idx").on(t.userId)],
);

/** Credentials of a user; `password` holds the PBKDF2 hash (dashboard/server/auth/password.ts). */
export const authAccount = authTable(
  "auth_account",
  {
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: ownedByUser("user_id"),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamptz("access_token_expires_at"),
    refreshTokenExpiresAt: timestamptz("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamptzNow("created_at"),
    updatedAt: timestamptz("updated_at").notNull(),
  },
  (t) => [index("auth_account_user_idx").on(t.userId)],
);

/** One-time values (e.g. password reset tokens). */
export const authVerification = authTable(
  "auth_verification",
  {
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    createdAt: timestamptzNow("created_at"),
    updatedAt: timestamptzNow("updated_at"),
  },
  (t) => [index("auth_verification_identifier_idx").on(t.identifier)],
);

/** An organisation: owns projects; its members have roles owner, admin, member or viewer. */
export const authOrganization = authTable("auth_organization", {
  name: text("name").notNull(),
  slug: text("slug").notNull().unique("auth_organization_slug_key"),
  logo: text("logo"),
  createdAt: timestamptz("created_at").notNull(),
  metadata: text("metadata"),
});

/** A user's membership and role in an organisation. */
export const authMember = authTable(
  "auth_member",
  {
    organizationId: ownedByOrganization(),
    userId: ownedByUser("user_id"),
    /** owner | admin | member | viewer (dashboard/server/auth/roles.ts). */
    role: text("role").notNull().default("member"),
    createdAt: timestamptz("created_at").notNull(),
  },
  (t) => [index("auth_member_organization_idx").on(t.organizationId), index("auth_member_user_idx").on(t.userId)],
);

/** A pending invitation; its id is the token in the invite link. */
export const authInvitation = authTable(
  "auth_invitation",
  {
    organizationId: ownedByOrganization(),
    email: text("email").notNull(),
    role: text("role"),
    status: text("status").notNull().default("pending"),
    expiresAt: timestamptz("expires_at").notNull(),
    createdAt: timestamptzNow("created_at"),
    inviterId: ownedByUser("inviter_id"),
  },
  (t) => [index("auth_invitation_organization_idx").on(t.organizationId), index("auth_invitation_email_idx").on(t.email)],
);

/** Better Auth's rate-limit counters (database storage, so limits hold across isolates). */
export const authRateLimit = authTable("auth_rate_limit", {
  key: text("key").notNull().unique("auth_rate_limit_key_key"),
  count: integer("count").notNull(),
  /** Unix time of the window's last request, in milliseconds. */
  lastRequest: bigint("last_request", { mode: "number" }).notNull().default(0),
});

/** The tables in the shape Better Auth's drizzle adapter wants (keyed by model name). */
export const betterAuthSchema = {
  user: authUser,
  session: authSession,
  account: authAccount,
  verification: authVerification,
  organization: authOrganization,
  member: authMember,
  invitation: authInvitation,
  rateLimit: authRateLimit,
};
