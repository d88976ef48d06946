/**
 * /api/projects: the projects the signed-in user can open (creating a new account's
 * organisation and first project on its first visit); new projects in an organisation, rename
 * and delete (owner or admin). Projects and the caller's role on them are the API's (typed
 * client, /internal/users/...); every write goes through the API too, which writes the project
 * with its subscription and organisation link in one transaction.
 */
import { Hono } from "hono";
import { z } from "zod";
import { roleAtLeast } from "../../../src/enums";
import { ApiError } from "../../../src/http/errors";
import type { Project, ProjectList } from "../contract";
import type { DashboardBindings } from "../env";
import { apiClient, unwrap } from "../lib/api-client";
import { authFor, projectAccess, requireSession } from "../lib/middleware";
import { validate, validIds } from "../lib/validate";
import { createOrganizationProject, ensureWorkspace, organizationRole, userProject, userProjects } from "../lib/workspace";

/** A project's name: 1 to 200 characters after trimming (the API's bound). */
const ProjectName = z.string().trim().min(1).max(200);
const NewProject = z.object({ name: ProjectName, organization_id: z.string().min(1).max(100) });
const projectIds = validIds({ projectId: "project" });

/** The caller's view of one of their projects (after a write), or 404. */
const projectView = (c: { var: DashboardBindings["Variables"] }, projectId: string): Promise<Project> => userProject(c.var.config, c.var.user.id, projectId);

/** Project routes; every one needs a session. */
export const projectRoutes = new Hono<DashboardBindings>()
  .use(requireSession())
  .get("/", async (c) => {
    let items = await userProjects(c.var.config, c.var.user.id);
    // Only a user without projects can need a workspace (a first visit): no extra query otherwise.
    if (items.length === 0) {
      await ensureWorkspace(c.var.config, c.var.db, authFor(c), c.var.user);
      items = await userProjects(c.var.config, c.var.user.id);
    }
    return c.json({ items, user: c.var.user } satisfies ProjectList, 200);
  })
  .post("/", validate("json", NewProject), async (c) => {
    const body = c.req.valid("json");
    const role = await organizationRole(c.var.config, c.var.user.id, body.organization_id);
    if (!roleAtLeast(role, "admin")) throw new ApiError(403, `this needs the admin role or higher; yours is ${role}`);
    const created = await createOrganizationProject(c.var.config, body.organization_id, body.name);
    return c.json(await projectView(c, created.id), 201);
  })
  .patch("/:projectId", projectIds, projectAccess("admin"), validate("json", z.object({ name: ProjectName })), async (c) => {
    const project = apiClient(c.var.config).internal.projects[":project_id"];
    await unwrap(project.$patch({ param: { project_id: c.var.project.id }, json: { name: c.req.valid("json").name } }));
    return c.json(await projectView(c, c.var.project.id), 200);
  })
  .delete("/:projectId", projectIds, projectAccess("admin"), async (c) => {
    await unwrap(apiClient(c.var.config).internal.projects[":project_id"].$delete({ param: { project_id: c.var.project.id } }));
    return c.body(null, 204);
  });
