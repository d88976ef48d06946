/**
 * What a browser test file with its own stack and one owner needs: the stack on the file's
 * ports (warmed up, as a user meets it) and an owner signed up in a browser of their own, both
 * started before the file's tests and closed after them; queries on the stack's database; the
 * move to a project page through its navigation link; a new API key made from the page.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { openPerson, type Person, signUp } from "./browser";
import { type BrowserStack, type BrowserStackOptions, queryDb, startBrowserStack, warmUp } from "./stack";

/** A test file's stack and its signed-up owner; both set once the file's `beforeAll` has run. */
export interface OwnerStack {
  stack: BrowserStack;
  owner: Person;
}

/**
 * Registers the calling file's `beforeAll`/`afterAll`: starts a stack with `opts` (its own ports,
 * extra API variables) and signs `name` up on it (email `<name>-<now>@example.com`); closes both
 * after the file's tests. Call it inside the file's `describe`.
 */
export function useOwnerStack(name: string, opts: BrowserStackOptions): OwnerStack {
  const ctx = {} as Partial<OwnerStack>;
  beforeAll(async () => {
    ctx.stack = await startBrowserStack(inject("databaseUrl"), opts);
    await warmUp(ctx.stack.dashboardUrl);
    ctx.owner = await openPerson(ctx.stack.dashboardUrl);
    await signUp(ctx.owner, name, `${name.toLowerCase()}-${Date.now()}@example.com`, "correct horse battery", ctx.stack.dashboardUrl);
  }, 300_000);
  afterAll(async () => {
    await ctx.owner?.close();
    await ctx.stack?.stop();
  }, 60_000);
  return ctx as OwnerStack;
}

/** One query on the test database the stacks run on (for what the stack does not run, or to check what it stored). */
export const db = <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => queryDb<T>(inject("databaseUrl"), text, params);

/** Opens the project page `label` through its link in the navigation and waits for its heading (h1 `label`). */
export async function openProjectPage(page: Page, label: string): Promise<void> {
  await page.getByRole("link", { name: label }).click();
  await page.getByRole("heading", { level: 1, name: label }).waitFor();
}

/**
 * Creates an API key `name` for project `projectId` as the person signed in on `page` (POST
 * /api/projects/{id}/keys of the dashboard, from the page); returns its full value.
 */
export async function createKeyFromPage(page: Page, projectId: string, name: string): Promise<string> {
  const created = await page.evaluate(
    async ({ id, name }) => {
      const res = await fetch(`/api/projects/${id}/keys`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name }),
      });
      return (await res.json()) as { key: string };
    },
    { id: projectId, name },
  );
  return created.key;
}
