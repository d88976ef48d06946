/**
 * Organisations and projects of a user. Projects and their organisation links are the API's
 * (issue 35.1, one owner per table): the user's projects and their role on each come from the
 * API's /internal/users routes, and new projects are written there (issue 25, one door: the
 * project, its subscription and its organisation link in one transaction). A user without any
 * organisation (a new account) gets one, named after them, through Better Auth (the owner of
 * organisations and members), with a first project created through the API, so that every
 * signed-in user has somewhere to start (issue 14).
 */
import { eq } from "drizzle-orm";
import type { AccountsDb } from "../../../src/accounts/database";
import { adoptDemoOrganization } from "../../../src/accounts/demo";
import { authMember } from "../../../src/accounts/schema";
import type { Auth } from "../auth/auth";
import type { Project } from "../contract";
import type { DashboardConfig } from "../config";
import type { SessionUser } from "../env";
import { apiClient, unwrap } from "./api-client";

/** The part of the config that reaches the API. */
type ApiConfig = Pick<DashboardConfig, "api" | "internalApiSecret">;

/** Projects of every organisation the user belongs to, oldest first (GET /internal/users/{user_id}/projects). */
export async function userProjects(config: ApiConfig, userId: string): Promise<Project[]> {
  return (await unwrap(apiClient(config).internal.users[":user_id"].projects.$get({ param: { user_id: userId } }))).items;
}

/**
 * Project `projectId` as `userId` sees it, with their role; 404 `project not found` when it is
 * unknown or of another organisation (GET /internal/users/{user_id}/projects/{project_id}).
 */
export async function userProject(config: ApiConfig, userId: string, projectId: string): Promise<Project> {
  const projects = apiClient(config).internal.users[":user_id"].projects[":project_id"];
  return unwrap(projects.$get({ param: { user_id: userId, project_id: projectId } }));
}

/** The user's role in `organizationId`; 404 `organisation not found` when they are no member of it. */
export async function organizationRole(config: ApiConfig, userId: string, organizationId: string): Promise<Project["role"]> {
  const organization = apiClient(config).internal.users[":user_id"].organizations[":organization_id"];
  return (await unwrap(organization.$get({ param: { user_id: userId, organization_id: organizationId } }))).role;
}

/** Creates a project attached to `organizationId` through the API, in one transaction there. */
export async function createOrganizationProject(config: ApiConfig, organizationId: string, name: string) {
  return unwrap(apiClient(config).internal.projects.$post({ json: { name, organization_id: organizationId } }));
}

/**
 * Gives a user without organisations somewhere to start: on a local stack, the demo organisation
 * of `npm run dev` if no account adopted it yet (src/accounts/demo.ts); otherwise their own
 * organisation and a first project. Reads and writes Better Auth's tables only (memberships,
 * organisations); the project goes through the API. The organisation's slug is derived from the
 * user id, so two concurrent first requests cannot both create one (the unique slug refuses the
 * second).
 */
export async function ensureWorkspace(config: DashboardConfig, db: AccountsDb, auth: Auth, user: SessionUser): Promise<void> {
  const [membership] = await db.select({ id: authMember.id }).from(authMember).where(eq(authMember.userId, user.id)).limit(1);
  if (membership) return;
  if (await adoptDemoOrganization(db, user.id)) return;
  const slug = `personal-${user.id.toLowerCase()}`;
  let org: { id: string } | null = null;
  try {
    org = await auth.api.createOrganization({ body: { name: `${user.name || user.email}'s organisation`, slug, userId: user.id } });
  } catch {
    return; // created by a concurrent request
  }
  if (org) await createOrganizationProject(config, org.id, "My first project");
}
