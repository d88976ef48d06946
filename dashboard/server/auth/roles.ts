/**
 * Roles of an organisation's members (docs/decisions.md D15): owner > admin > member > viewer.
 *
 * - viewer: reads projects, keys (hints only), usage and billing.
 * - member: also creates and rotates keys.
 * - admin: also revokes and deletes keys, creates projects, starts checkout / the billing
 *   portal, invites and manages members.
 * - owner: everything an admin can, and cannot be removed by an admin.
 *
 * The same roles go to Better Auth's organisation plugin (invitations, member changes), whose
 * permissions come from its own default statements.
 */
import { createAccessControl } from "better-auth/plugins/access";
import { adminAc, defaultStatements, memberAc, ownerAc } from "better-auth/plugins/organization/access";

// The roles and their order are declared once, in src/enums.ts (shared with the browser).
import type { Role } from "../../../src/enums";

export { type Role, roleAtLeast } from "../../../src/enums";

const ac = createAccessControl(defaultStatements);

/** Access control for Better Auth's organisation plugin; a viewer may change nothing. */
export const organizationRoles = {
  ac,
  roles: {
    owner: ac.newRole(ownerAc.statements),
    admin: ac.newRole(adminAc.statements),
    member: ac.newRole(memberAc.statements),
    viewer: ac.newRole({}),
  } satisfies Record<Role, ReturnType<typeof ac.newRole>>,
};
