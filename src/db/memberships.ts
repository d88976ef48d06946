/**
 * What the dashboard server asks before it answers a person (issue 35.1, one owner per table):
 * the projects of the organisations a user belongs to, with their role, and their role in one
 * organisation. Reads Better Auth's `auth_member` and `auth_organization` (src/accounts/schema.ts,
 * written only by the dashboard server) joined with the API's `organization_projects` and
 * `projects`; writes nothing. Served at /internal/users/... (workers/api/src/routes/memberships.ts).
 */
import { and, asc, eq, type SQL } from "drizzle-orm";
import { authMember, authOrganization } from "../accounts/schema";
import type { Db } from "./driver/client";
import { projects } from "./schema";
import { organizationProjects } from "./schema/organizations";

/** A project as one of its organisation's members sees it: with the organisation and the member's role (a `ROLES` value). */
export interface MemberProject {
  id: string;
  name: string;
  created_at: Date;
  organization_id: string;
  organization_name: string;
  role: string;
}

/** The member projects of `userId` that match `where`, oldest first. */
function memberProjects(db: Db, userId: string, where?: SQL): Promise<MemberProject[]> {
  return db
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
    .where(and(eq(authMember.userId, userId), where))
    .orderBy(asc(projects.created_at), asc(projects.id));
}

/** Projects of every organisation `userId` belongs to, oldest first (none for an unknown user). */
export function userProjects(db: Db, userId: string): Promise<MemberProject[]> {
  return memberProjects(db, userId);
}

/** Project `projectId` as `userId` sees it, or null when it is no project of their organisations. */
export async function userProject(db: Db, userId: string, projectId: string): Promise<MemberProject | null> {
  const [row] = await memberProjects(db, userId, eq(projects.id, projectId));
  return row ?? null;
}

/** The role of `userId` in organisation `organizationId`, or null when they are no member of it. */
export async function organizationRole(db: Db, userId: string, organizationId: string): Promise<string | null> {
  const [row] = await db
    .select({ role: authMember.role })
    .from(authMember)
    .where(and(eq(authMember.organizationId, organizationId), eq(authMember.userId, userId)))
    .limit(1);
  return row?.role ?? null;
}
