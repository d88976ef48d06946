/**
 * `organization_projects`: which dashboard organisation (Better Auth's `auth_organization`,
 * src/accounts/schema.ts) owns each Sightline project (docs/decisions.md D15). Owner: the API,
 * which writes the link with the project in one transaction (src/db/projects.ts) and answers the
 * dashboard's membership questions with it (src/db/memberships.ts).
 */
import { index, pgTable } from "drizzle-orm/pg-core";
import { ownedByOrganization } from "../../accounts/schema";
import { timestamptzNow } from "./columns";
import { projectKey } from "./projects";

/** Which organisation owns each Sightline project. */
export const organizationProjects = pgTable(
  "organization_projects",
  {
    project_id: projectKey(),
    organization_id: ownedByOrganization(),
    created_at: timestamptzNow("created_at"),
  },
  (t) => [index("organization_projects_organization_idx").on(t.organization_id)],
);
