/**
 * /api/projects: the projects the signed-in user can open (creating a new account's
 * organisation and first project on its first visit), and new projects (admin).
 */
import { Hono } from "hono";
import { z } from "zod";
import { and, eq } from "drizzle-orm";
import { authMember } from "../../../src/db/auth-schema";
import { ApiError } from "../../../src/errors";
import { roleAtLeast } from "../auth/roles";
import type { DashboardBindings } from "../env";
import { jsonBody } from "../lib/body";
import { authFor, requireSession } from "../lib/middleware";
import { createOrganizationProject, ensureWorkspace, userProjects } from "../lib/workspace";

const NewProject = z.object({ name: z.string().trim().min(1).max(200), organization_id: z.string().min(1) });

/** Project routes; every one needs a session. */
export const projectRoutes = new Hono<DashboardBindings>()
  .use(requireSession())
  .get("/", async (c) => {
    await ensureWorkspace(c.env, c.var.db, authFor(c), c.var.user);
    return c.json({ items: await userProjects(c.var.db, c.var.user.id), user: c.var.user }, 200);
  })
  .post("/", async (c) => {
    const body = await jsonBody(c, NewProject);
    const [member] = await c.var.db
      .select({ role: authMember.role })
      .from(authMember)
      .where(and(eq(authMember.organizationId, body.organization_id), eq(authMember.userId, c.var.user.id)));
    if (!member) throw new ApiError(404, "organisation not found");
    if (!roleAtLeast(member.role, "admin")) throw new ApiError(403, `this needs the admin role or higher; yours is ${member.role}`);
    const project = await createOrganizationProject(c.env, c.var.db, body.organization_id, body.name);
    return c.json(project, 201);
  });
