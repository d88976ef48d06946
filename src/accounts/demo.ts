/**
 * The local demo's organisation (issue 25.6): `npm run dev` creates, on an empty database, a
 * "Demo" project (where the README's quick-start calls go) owned by an organisation nobody has
 * claimed yet; the first account that signs up in the local dashboard adopts it as owner, so the
 * quick-start calls are visible there. A deployment never creates this organisation, so nothing
 * changes there.
 *
 * Both steps touch Better Auth's tables only (./schema.ts), so neither goes through the API:
 * `createDemoOrganization` is dev seeding (scripts/lib/stack.ts `seedDemoProject`, which then
 * creates the Demo project linked to it with the API's own `createProject`), and
 * `adoptDemoOrganization` runs in the dashboard server, the tables' owner, on an account's first
 * visit (dashboard/server/lib/workspace.ts). On a deployment the adoption finds nothing to claim.
 */
import { and, eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { AccountsDb } from "./database";
import { authMember, authOrganization } from "./schema";

/** Slug of the demo organisation (unique, so there is at most one). */
export const DEMO_ORGANIZATION_SLUG = "sightline-demo";
/** `metadata` of the demo organisation until an account adopts it. */
export const DEMO_UNCLAIMED = '{"demo":"unclaimed"}';
/** `metadata` once adopted. */
const DEMO_CLAIMED = '{"demo":"claimed"}';

/** Creates the unclaimed demo organisation (`slug`: tests use their own); returns its id. */
export async function createDemoOrganization(db: AccountsDb, now = new Date(), slug = DEMO_ORGANIZATION_SLUG): Promise<string> {
  const id = uuidv7();
  await db.insert(authOrganization).values({ id, name: "Demo", slug, createdAt: now, metadata: DEMO_UNCLAIMED });
  return id;
}

/**
 * Makes `userId` the owner of the demo organisation if no account has adopted it yet. The claim
 * is one conditional UPDATE, so of two accounts signing up at once exactly one adopts it.
 * Returns the organisation id, or null when there is nothing to adopt.
 */
export async function adoptDemoOrganization(db: AccountsDb, userId: string, slug = DEMO_ORGANIZATION_SLUG, now = new Date()): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [org] = await tx
      .update(authOrganization)
      .set({ metadata: DEMO_CLAIMED })
      .where(and(eq(authOrganization.slug, slug), eq(authOrganization.metadata, DEMO_UNCLAIMED)))
      .returning({ id: authOrganization.id });
    if (!org) return null;
    await tx.insert(authMember).values({ id: uuidv7(), organizationId: org.id, userId, role: "owner", createdAt: now });
    return org.id;
  });
}
