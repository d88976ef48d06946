/**
 * /internal/users/{user_id}/...: what the dashboard server asks before it answers a signed-in
 * person (issue 35.1, one owner per table), behind `X-Internal-Secret` (`access.internal()`):
 * the projects of their organisations with their role (the project list, and the check of every
 * project route: a project of another organisation is 404 as an unknown one), and their role in
 * one organisation (creating a project there). The dashboard server asks with the user id of the
 * session it verified; reads only (src/db/memberships.ts).
 */
import { z } from "@hono/zod-openapi";
import { type MemberProject, organizationRole, userProject, userProjects } from "../../../../src/db/memberships";
import { type Role, ROLES } from "../../../../src/enums";
import { orNotFound } from "../../../../src/http/errors";
import { iso } from "../../../../src/util";
import { createRouter, internalRoutesTagged, jsonResponse as json, notFoundResponse } from "./openapi";
import { instant } from "./schemas";

/** A Better Auth id (user, organisation): text the dashboard's auth chose. */
const AuthId = z.string().min(1).max(255);
const UserParam = z.object({ user_id: AuthId.openapi({ description: "The dashboard user (Better Auth `auth_user.id`)" }) });
const UserProjectParam = UserParam.extend({ project_id: z.uuid() });
const UserOrganizationParam = UserParam.extend({ organization_id: AuthId.openapi({ description: "The organisation (`auth_organization.id`)" }) });
const role = z.enum(ROLES).openapi({ description: "The user's role in the organisation" });

/** A project as one of its organisation's members sees it. */
export const MemberProjectSchema = z
  .object({ id: z.uuid(), name: z.string(), created_at: instant, organization_id: z.string(), organization_name: z.string(), role })
  .openapi("MemberProject");

/** `MemberProject` as JSON; the role as stored (Better Auth writes only `ROLES`, dashboard/server/auth/roles.ts). */
const memberProjectJson = (p: MemberProject) => ({ ...p, created_at: iso(p.created_at), role: p.role as Role });

const route = internalRoutesTagged("internal");

const routes = {
  listUserProjects: route("get", "/internal/users/{user_id}/projects", {
    summary: "The projects of every organisation a dashboard user belongs to, oldest first, with their role",
    request: { params: UserParam },
    responses: { 200: json(z.object({ items: z.array(MemberProjectSchema) }), "The user's projects (none for an unknown user)") },
  }),
  getUserProject: route("get", "/internal/users/{user_id}/projects/{project_id}", {
    summary: "One project as a dashboard user sees it, with their role",
    description: "404 when the project is unknown or belongs to no organisation of the user (nothing revealed).",
    request: { params: UserProjectParam },
    responses: { 200: json(MemberProjectSchema, "The project"), ...notFoundResponse },
  }),
  getUserOrganization: route("get", "/internal/users/{user_id}/organizations/{organization_id}", {
    summary: "A dashboard user's role in an organisation",
    description: "404 when the organisation is unknown or the user is no member of it.",
    request: { params: UserOrganizationParam },
    responses: { 200: json(z.object({ organization_id: z.string(), role }), "The membership"), ...notFoundResponse },
  }),
};

/** Registers the membership routes. */
export const membershipRoutes = createRouter()
  .openapi(routes.listUserProjects, async (c) => {
    const items = await userProjects(c.var.db, c.req.valid("param").user_id);
    return c.json({ items: items.map(memberProjectJson) }, 200);
  })
  .openapi(routes.getUserProject, async (c) => {
    const { user_id, project_id } = c.req.valid("param");
    const project = orNotFound(await userProject(c.var.db, user_id, project_id), "project");
    return c.json(memberProjectJson(project), 200);
  })
  .openapi(routes.getUserOrganization, async (c) => {
    const { user_id, organization_id } = c.req.valid("param");
    const found = orNotFound(await organizationRole(c.var.db, user_id, organization_id), "organisation");
    return c.json({ organization_id, role: found as Role }, 200);
  });
