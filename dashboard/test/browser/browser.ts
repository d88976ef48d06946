/**
 * Debian's Chromium driven by playwright-core (no downloaded browser), one fresh profile per
 * simulated person; axe-core checks; screenshots and first-render timings of each page.
 */
import { randomInt } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Locator, type Page } from "playwright-core";

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

/**
 * A client address of its own for one simulated person, from 198.18.0.0/15 (RFC 2544's
 * benchmarking range, never routed). Sent as `CF-Connecting-IP`, which Cloudflare sets on every
 * request and Miniflare sets only when absent: the dashboard's sign-in and sign-up rate limits
 * (5 a minute per address, kept in the shared test database) then count each person apart, as
 * they count real users, instead of every browser file's owner in one bucket.
 */
function clientAddress(): string {
  const n = randomInt(1, 2 ** 17 - 1);
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

/** Opens Chromium with a fresh --user-data-dir and a client address of its own. */
export async function openPerson(origin: string): Promise<Person> {
  const dir = mkdtempSync(join(tmpdir(), "sightline-chromium-"));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ARGS,
    extraHTTPHeaders: { "cf-connecting-ip": clientAddress() },
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
 * and waits for the onboarding page every new account lands on. Throws at once with the form's
 * error when sign-up is refused (e.g. 429 "Too many requests") instead of waiting out the timeout.
 */
export async function signUp(person: Person, name: string, email: string, password: string, origin?: string): Promise<void> {
  const { page } = person;
  if (origin) await page.goto(`${origin}/sign-up`);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  // Account creation hashes the password (scrypt) and seeds the organisation: on a loaded 2-core
  // machine running several browser stacks at once it has taken over 30 s (the default wait).
  const landed = page.getByRole("heading", { level: 1, name: "Get started" });
  const refused = page.getByRole("alert");
  await landed.or(refused).first().waitFor({ timeout: 120_000 });
  if (!(await landed.isVisible())) throw new Error(`sign-up of ${email} refused: ${await refused.first().innerText()}`);
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

/**
 * Opens the call of model `review-model` in the safety triage queue on `page` and returns the
 * request drawer and its `scorer` score card.
 */
export async function openQueuedCall(page: Page, scorer: string): Promise<{ drawer: Locator; card: Locator }> {
  await page
    .getByRole("list", { name: "Queue" })
    .getByRole("button", { name: /review-model/ })
    .click();
  const drawer = page.getByRole("dialog", { name: "Request detail" });
  return { drawer, card: drawer.getByRole("listitem").filter({ hasText: scorer }) };
}
