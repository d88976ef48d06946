/**
 * Organisations and projects of a user. A user without any organisation (a new account) gets
 * one, named after them, with a first project created through the API's /internal/projects,
 * so that every signed-in user has somewhere to start (issue 14, "a new account gets an
 * organisation and a first project"). Projects are written only by the API (issue 25, one door):
 * the project, its subscription and its organisation link in one transaction there.
 */
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../../src/db/driver/client";
import { adoptDemoOrganization } from "../../../src/db/demo-organization";
import { authMember, authOrganization, organizationProjects } from "../../../src/db/schema/auth";
import { projects } from "../../../src/db/schema";
import type { Role } from "../../../src/enums";
import type { Auth } from "../auth/auth";
import type { Project } from "../contract";
import type { DashboardConfig } from "../config";
import type { SessionUser } from "../env";
import { apiClient, unwrap } from "./api-client";

/** Projects of every organisation the user belongs to, oldest first. */
export async function userProjects(db: Db, userId: string): Promise<Project[]> {
  const rows = await db
    .select({
      id: projects.id,
      name: projects.name,
      created_at: projects.created_at,
      organization_id: authOrganization.id,
      organization_name: authOrganization.name,
      role: authMember.role,
    })
    .from(authMember)
    .innerJoin(authOrganization, eq(authOrganization.id, authMember.organizationId))
    .innerJoin(organizationProjects, eq(organizationProjects.organization_id, authOrganization.id))
    .innerJoin(projects, eq(projects.id, organizationProjects.project_id))
    .where(eq(authMember.userId, userId))
    .orderBy(asc(projects.created_at));
  return rows.map((r) => ({ ...r, role: r.role as Role, created_at: r.created_at.toISOString() }));
}

/** Creates a project attached to `organizationId` through the API, in one transaction there. */
export async function createOrganizationProject(config: DashboardConfig, organizationId: string, name: string) {
  return unwrap(apiClient(config).internal.projects.$post({ json: { name, organization_id: organizationId } }));
}

/**
 * Gives a user without organisations somewhere to start: on a local stack, the demo organisation
 * of `npm run dev` if no account adopted it yet (src/db/demo-organization.ts); otherwise their
 * own organisation and a first project. The organisation's slug is derived from the user id, so
 * two concurrent first requests cannot both create one (the unique slug refuses the second).
 */
export async function ensureWorkspace(config: DashboardConfig, db: Db, auth: Auth, user: SessionUser): Promise<void> {
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
