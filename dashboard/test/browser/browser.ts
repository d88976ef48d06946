/**
 * Debian's Chromium driven by playwright-core (no downloaded browser), one fresh profile per
 * simulated person; axe-core checks; screenshots and first-render timings of each page.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Chromium flags for a quiet, offline, reproducible headless run. */
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A person with their own browser profile (cookies, storage). */
export interface Person {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Opens Chromium with a fresh --user-data-dir. */
export async function openPerson(origin: string): Promise<Person> {
  const dir = mkdtempSync(join(tmpdir(), "sightline-chromium-"));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 860 },
    permissions: ["clipboard-read", "clipboard-write"],
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Signs a new account up on the sign-up page `person` has open (or opens it at `origin` first)
 * and waits for where it lands: the onboarding page every new account lands on, or with
 * `landing: "project"` any project page (the first account of a database that holds the demo
 * organisation adopts it and lands on its project instead).
 */
export async function signUp(
  person: Person,
  name: string,
  email: string,
  password: string,
  origin?: string,
  landing: "onboarding" | "project" = "onboarding",
): Promise<void> {
  const { page } = person;
  if (origin) await page.goto(`${origin}/sign-up`);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  // Account creation hashes the password (scrypt) and seeds the organisation: on a loaded 2-core
  // machine running several browser stacks at once it has taken over 30 s (the default wait).
  if (landing === "project") await page.waitForURL(/\/p\/[0-9a-f-]{36}\//, { timeout: 120_000 });
  else await page.getByRole("heading", { level: 1, name: "Get started" }).waitFor({ timeout: 120_000 });
}

/** axe-core violations of impact serious or critical on the current page. */
export async function seriousViolations(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run();
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
  });
}

/**
 * The serious or critical axe-core violations of each page `paths` of `base` (e.g.
 * `<dashboard>/p/<project>`), in light and in dark mode (the `theme` the app reads from
 * localStorage), keyed `"<theme> <path>"`; empty lists when clean. Checks that the theme took
 * effect, and leaves the theme unset afterwards.
 */
export async function violationsInBothThemes(
  page: Page,
  base: string,
  paths: readonly string[],
): Promise<Record<string, { id: string; impact: string; nodes: string[] }[]>> {
  const out: Record<string, { id: string; impact: string; nodes: string[] }[]> = {};
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => localStorage.setItem("theme", t), theme);
    for (const path of paths) {
      await page.goto(`${base}/${path}`);
      await page.getByRole("heading", { level: 1 }).waitFor();
      await page.waitForLoadState("networkidle");
      const dark = await page.evaluate(() => document.documentElement.classList.contains("dark"));
      if (dark !== (theme === "dark")) throw new Error(`${path}: the ${theme} theme did not apply`);
      out[`${theme} ${path}`] = await seriousViolations(page);
    }
  }
  await page.evaluate(() => localStorage.removeItem("theme"));
  return out;
}
