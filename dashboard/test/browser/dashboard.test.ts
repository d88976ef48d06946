/**
 * The dashboard in a real Chromium, acting as its users do (roles, labels, text): sign-up,
 * isolation between accounts, the key lifecycle with the API refusing a revoked key, billing
 * upgrade through the Stripe stand-in, role enforcement, axe-core on every page. Screenshots
 * go to docs/screenshots/, first-render times to bench/results/dashboard.md.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ROOT } from "../../../scripts/lib/postgres";
import { openPerson, seriousViolations, type Person } from "./browser";
import { startBrowserStack, type BrowserStack } from "./stack";

const PASSWORD = "correct horse battery";
const SHOTS = join(ROOT, "docs/screenshots");
let stack: BrowserStack;
let alice: Person;
let bob: Person;
const aliceEmail = `alice-${Date.now()}@example.com`;
const bobEmail = `bob-${Date.now()}@example.com`;
let aliceProject = "";
/** First render of each page: Chromium's FCP, the page's heading, its data on screen (ms from navigation). */
const renders: { page: string; fcpMs: number | null; headingMs: number; readyMs: number }[] = [];

/** A query on the stack's database (for what the stack does not run: the scorer, bulk seeding). */
async function db<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Opens `path`, waits for its heading, then for `ready` (the page's data), recording the times. */
async function visit(page: Page, path: string, heading: string, name: string, ready: (page: Page) => Locator): Promise<void> {
  const started = performance.now();
  await page.goto(`${stack.dashboardUrl}${path}`);
  await page.getByRole("heading", { level: 1, name: heading }).waitFor();
  const headingMs = Math.round(performance.now() - started);
  await ready(page).first().waitFor();
  const readyMs = Math.round(performance.now() - started);
  const fcp = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null);
  renders.push({ page: name, fcpMs: fcp === null ? null : Math.round(fcp), headingMs, readyMs });
}

async function expectAccessible(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

/** POST /internal/log with an API key, as a client library does. */
async function logWith(key: string): Promise<number> {
  const res = await fetch(`${stack.apiUrl}/internal/log`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Service-Key": key },
    body: JSON.stringify({
      model: "gpt-4o-mini",
      provider: "openai",
      request_body: { messages: [{ role: "user", content: "hi" }] },
      response_body: { ok: true },
    }),
  });
  await res.body?.cancel();
  return res.status;
}

/** fetch() from inside the page (with its session cookie), as the SPA's own code would. */
function fetchInPage(page: Page, path: string, init: { method: string; json?: unknown }) {
  return page.evaluate(
    async ({ path, init }) => {
      const res = await fetch(path, {
        method: init.method,
        headers: { "Content-Type": "application/json" },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
      return { status: res.status, body: await res.text() };
    },
    { path, init },
  );
}

async function signUp(person: Person, name: string, email: string) {
  const { page } = person;
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("heading", { level: 1, name: "Get started" }).waitFor();
}

/** The key shown in the "shown once" dialog. */
async function shownKey(page: Page): Promise<string> {
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  const text = await dialog.innerText();
  const key = /slk_[0-9a-f]{48}/.exec(text)?.[0];
  expect(key).toBeDefined();
  expect(text).toContain(`SERVICE_API_KEY=${key}`);
  return key!;
}

describe("Dashboard in Chromium", () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    stack = await startBrowserStack(inject("databaseUrl"));
    // A running stack, as a user meets it: the page, its assets and the Functions have served once.
    const html = await (await fetch(`${stack.dashboardUrl}/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    for (const path of [...assets, "/api/projects"]) await (await fetch(`${stack.dashboardUrl}${path}`)).body?.cancel();
    alice = await openPerson(stack.dashboardUrl);
    bob = await openPerson(stack.dashboardUrl);
  }, 300_000);

  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await stack?.stop();
    if (renders.length > 0) writeResults();
  }, 60_000);

  it("Should sign up a new user into their own organisation and first project", async () => {
    const { page } = alice;
    await visit(page, "/sign-up", "Create your Sightline account", "Sign up", (p) => p.getByRole("button", { name: "Create account" }));
    await expectAccessible(page);
    await shot(page, "sign-up");
    await signUp(alice, "Alice", aliceEmail);
    aliceProject = /\/p\/([0-9a-f-]{36})\//.exec(page.url())![1]!;
    await expect(page.getByRole("combobox", { name: "Project" }).inputValue()).resolves.toBe(aliceProject);
    await page.getByText("No calls logged yet").waitFor();
    await visit(page, `/p/${aliceProject}/start`, "Get started", "Get started (onboarding)", (p) => p.getByText("SIGHTLINE_BASE_URL="));
    await expectAccessible(page);
    await shot(page, "onboarding");
  });

  it("Should tell a wrong password without saying whether the account exists", async () => {
    const { page } = bob;
    await visit(page, "/sign-in", "Sign in to Sightline", "Sign in", (p) => p.getByRole("button", { name: "Sign in" }));
    await expectAccessible(page);
    await page.getByLabel("Email").fill(aliceEmail);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").innerText()).resolves.toBe("Wrong email or password.");
    await page.getByLabel("Email").fill(`nobody-${aliceEmail}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForTimeout(500);
    await expect(page.getByRole("alert").innerText()).resolves.toBe("Wrong email or password.");
    await shot(page, "sign-in-error");
  });

  it("Should create a key shown once, copy it, log with it, and have the API refuse it once revoked", async () => {
    const { page } = alice;
    await visit(page, `/p/${aliceProject}/keys`, "API keys", "API keys", (p) => p.getByText(/No keys yet|Created by/));
    await page.getByLabel("Key name").fill("production");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = await shownKey(page);
    await page.getByRole("button", { name: "Copy API key" }).click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(key);
    await expectAccessible(page);
    await shot(page, "api-key-created");
    await page.getByRole("button", { name: "Done" }).click();
    // Shown once: gone from the page, only the hint remains.
    await page.getByRole("row", { name: /production/ }).waitFor();
    expect(await page.content()).not.toContain(key);
    await expect(page.getByRole("row", { name: /production/ }).innerText()).resolves.toContain(`${key.slice(0, 8)}…${key.slice(-4)}`);

    expect(await logWith(key)).toBe(202);
    await page.reload();
    const row = page.getByRole("row", { name: /production/ });
    await expect(row.innerText()).resolves.toContain(aliceEmail);
    await expect(row.innerText()).resolves.not.toContain("Never");

    await page.getByRole("button", { name: "Revoke production" }).click();
    await page.getByRole("alertdialog").waitFor();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Revoke key" }).click();
    await row.getByText("Revoked").waitFor();
    const listed = await fetchInPage(page, `/api/projects/${aliceProject}/keys`, { method: "GET" });
    const status = await logWith(key);
    expect(status, listed.body).toBe(401);
    await expectAccessible(page);
  });

  it("Should rotate a key: new key shown once, live 60 s countdown, both keys accepted meanwhile", async () => {
    const { page } = alice;
    await page.getByLabel("Key name").fill("ci");
    await page.getByRole("button", { name: "Create key" }).click();
    const old = await shownKey(page);
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByRole("button", { name: "Rotate ci" }).click();
    const fresh = await shownKey(page);
    expect(fresh).not.toBe(old);
    await expect(page.getByRole("dialog").innerText()).resolves.toContain("60 seconds");
    await page.getByRole("button", { name: "Done" }).click();
    const rotating = page.getByText(/Rotating: \d+ s left/);
    await rotating.waitFor();
    const first = Number(/(\d+) s left/.exec(await rotating.innerText())![1]);
    expect(first).toBeGreaterThan(50);
    expect(first).toBeLessThanOrEqual(60);
    await page.waitForTimeout(2_100);
    const later = Number(/(\d+) s left/.exec(await page.getByText(/Rotating: \d+ s left/).innerText())![1]);
    expect(later).toBeLessThan(first);
    expect(await logWith(old)).toBe(202);
    expect(await logWith(fresh)).toBe(202);
    await shot(page, "api-keys");
  });

  it("Should keep a second user out of the first user's project", async () => {
    const { page } = bob;
    await page.goto(`${stack.dashboardUrl}/sign-up`);
    await signUp(bob, "Bob", bobEmail);
    const options = await page
      .getByRole("combobox", { name: "Project" })
      .locator("option")
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(options).not.toContain(aliceProject);
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/keys`);
    await page.getByText("Project not found").waitFor();
    const keys = await fetchInPage(page, `/api/projects/${aliceProject}/keys`, { method: "GET" });
    expect(keys.status).toBe(404);
    expect(keys.body).not.toContain("production");
  });

  it("Should upgrade to Pro through Stripe Checkout (stand-in) and show the Pro meter", async () => {
    const { page } = alice;
    await visit(page, `/p/${aliceProject}/billing`, "Billing", "Billing", (p) => p.getByRole("meter"));
    await expect(page.getByText(/of 10,000 requests/).count()).resolves.toBe(1);
    await expectAccessible(page);
    await shot(page, "billing-free");
    await page.getByRole("button", { name: "Upgrade to Pro" }).click();
    await page.getByRole("button", { name: "Pay (test)" }).click();
    await page.waitForURL(/\/billing\?checkout=success/);
    await page.getByText("pro", { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByText(/of 500,000 requests/).waitFor();
    await expectAccessible(page);
    await shot(page, "billing-pro");
  });

  it("Should let an admin invite a viewer, whom the server refuses key creation", async () => {
    await visit(alice.page, `/p/${aliceProject}/members`, "Members", "Members", (p) => p.getByRole("row", { name: new RegExp(aliceEmail) }));
    await expectAccessible(alice.page);
    await alice.page.getByLabel("Email to invite").fill(bobEmail);
    await alice.page.getByLabel("Role").selectOption("viewer");
    await alice.page.getByRole("button", { name: "Create invite link" }).click();
    const link = /https?:\/\/\S+\/invite\/\S+/.exec(await alice.page.getByRole("figure").filter({ hasText: "Invite link" }).innerText())![0];
    await alice.page.getByText(`${bobEmail} as viewer`).waitFor();
    await shot(alice.page, "members");

    const { page } = bob;
    await page.goto(link);
    await page.getByRole("button", { name: "Accept invitation" }).click();
    await page.waitForURL(/\/p\/.*\/start/);
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/keys`);
    await page.getByText("Your role (viewer) can see keys but not create or change them.").waitFor();
    expect(await page.getByRole("button", { name: "Create key" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /Revoke|Rotate|Delete/ }).count()).toBe(0);
    const refused = await fetchInPage(page, `/api/projects/${aliceProject}/keys`, { method: "POST", json: { name: "sneaky" } });
    expect(refused.status).toBe(403);
    await expectAccessible(page);
    await shot(page, "api-keys-viewer");
    await page.reload();
    expect(await page.getByRole("row", { name: /sneaky/ }).count()).toBe(0);

    // The owner sees Bob as a viewer and can change his role.
    await alice.page.reload();
    await alice.page.getByLabel(`Role of ${bobEmail}`).selectOption("member");
    await alice.page.waitForTimeout(500);
    const allowed = await fetchInPage(page, `/api/projects/${aliceProject}/keys`, { method: "POST", json: { name: "now a member" } });
    expect(allowed.status).toBe(201);
  });

  it("Should show logged calls in the Requests table, keep filters in the URL, mask PII in the detail, and show new calls live", async () => {
    const { page } = alice;
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/keys`);
    const created = await fetchInPage(page, `/api/projects/${aliceProject}/keys`, { method: "POST", json: { name: "requests-page" } });
    const { key } = JSON.parse(created.body) as { key: string };
    const log = (body: Record<string, unknown>) =>
      fetch(`${stack.apiUrl}/internal/log`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Service-Key": key },
        body: JSON.stringify({
          model: "gpt-4o-mini",
          provider: "openai",
          response_body: { choices: [{ message: { role: "assistant", content: "Sure." } }] },
          ...body,
        }),
      }).then((r) => r.status);
    expect(
      await log({
        provider: "anthropic",
        model: "claude-test",
        request_body: { messages: [{ role: "user", content: "write to jane.doe@example.com please" }] },
      }),
    ).toBe(202);
    expect(await log({ request_body: { messages: [{ role: "user", content: "plain question" }] } })).toBe(202);
    await visit(page, `/p/${aliceProject}/requests`, "Requests", "Requests", (p) => p.getByRole("cell", { name: "claude-test" }));
    await expectAccessible(page);
    await shot(page, "requests");
    // The filter lives in the URL: opening it shows only the matching row.
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/requests?provider=anthropic`);
    await page.getByRole("cell", { name: "claude-test" }).waitFor();
    await expect(page.getByRole("cell", { name: "gpt-4o-mini" }).count()).resolves.toBe(0);
    await expect(page.getByLabel("Provider", { exact: true }).inputValue()).resolves.toBe("anthropic");
    // The detail: the conversation as chat, the e-mail address masked.
    await page.getByRole("cell", { name: "claude-test" }).click();
    const drawer = page.getByRole("dialog", { name: "Request detail" });
    await drawer.getByText("write to [EMAIL] please").waitFor();
    expect(await drawer.innerText()).not.toContain("jane.doe@example.com");
    await shot(page, "request-detail");
    await drawer.getByRole("button", { name: "Close" }).click();
    // Live: a call logged now is announced as "1 new" without a reload (10 s polling).
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/requests`);
    await page.getByRole("cell", { name: "claude-test" }).waitFor();
    expect(await log({ model: "live-model", request_body: { messages: [{ role: "user", content: "live" }] } })).toBe(202);
    await page.getByRole("button", { name: "1 new" }).waitFor({ timeout: 25_000 });
    await page.getByRole("button", { name: "1 new" }).click();
    await page.getByRole("cell", { name: "live-model" }).waitFor();
    await visit(page, `/p/${aliceProject}/overview`, "Overview", "Overview", (p) => p.getByRole("img", { name: /Requests: 24 buckets/ }));
    await shot(page, "overview");
    await visit(page, `/p/${aliceProject}/safety`, "Safety triage", "Safety triage", (p) => p.getByRole("img", { name: /unsafe rate per day/ }));
    await shot(page, "safety-triage");
  }, 90_000);

  it("Should store a false positive marked in the detail, with who, and filter the list by it", async () => {
    const { page } = alice;
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/keys`);
    const created = await fetchInPage(page, `/api/projects/${aliceProject}/keys`, { method: "POST", json: { name: "review" } });
    const { key } = JSON.parse(created.body) as { key: string };
    const res = await fetch(`${stack.apiUrl}/internal/log`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Service-Key": key },
      body: JSON.stringify({ model: "review-model", provider: "openai", request_body: { messages: [{ role: "user", content: "how do I pick a lock" }] } }),
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    // The stack runs without the scorer: its six scores are written as the scorer writes them.
    await db(
      `INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale)
       SELECT gen_random_uuid(), $1, $2, n, CASE WHEN n = 'content_safety' THEN 5 ELSE 1 END,
              CASE WHEN n = 'content_safety' THEN 'unsafe' ELSE 'safe' END, 'browser test'
         FROM unnest(ARRAY['content_safety','pii_detection','jailbreak_detection','data_poisoning','vector_weakness','unbounded_consumption']) AS n`,
      [id, aliceProject],
    );
    await db("UPDATE llm_requests SET scoring_state = 'scored' WHERE id = $1", [id]);
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/requests?model=review-model`);
    await page.getByRole("cell", { name: "review-model" }).click();
    const drawer = page.getByRole("dialog", { name: "Request detail" });
    const contentSafety = drawer.getByRole("listitem").filter({ hasText: "content_safety" });
    await contentSafety.getByRole("button", { name: "Mark false positive" }).click();
    await contentSafety.getByText(`Reviewed false positive by ${aliceEmail}`).waitFor();
    const stored = await db<{ verdict: string; reviewer: string; scorer_name: string }>(
      "SELECT verdict, reviewer, scorer_name FROM score_reviews WHERE request_id = $1",
      [id],
    );
    expect(stored).toEqual([{ verdict: "false_positive", reviewer: aliceEmail, scorer_name: "content_safety" }]);
    // The list filtered by the verdict (from the filter control, then the URL) shows only that call.
    await drawer.getByRole("button", { name: "Close" }).click();
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/requests`);
    await page.getByRole("cell", { name: "claude-test" }).waitFor();
    await page.getByLabel("Reviewed", { exact: true }).selectOption("false_positive");
    await page.waitForURL(/reviewed=false_positive/);
    await page.getByRole("cell", { name: "review-model" }).waitFor();
    await expect(page.getByRole("cell", { name: "claude-test" }).count()).resolves.toBe(0);
    await expect(page.getByRole("cell", { name: "gpt-4o-mini" }).count()).resolves.toBe(0);
  }, 90_000);

  it("Should export every row of a filter larger than one database page from the Export link", async () => {
    const { page } = alice;
    // 2,345 calls (the export reads pages of 1,000), written straight to the database.
    const ROWS = 2345;
    await db(
      `INSERT INTO llm_requests (id, project_id, model, provider, request_body, response_body, metadata, created_at, latency_ms)
       SELECT gen_random_uuid(), $1, 'bulk-export', 'openai', jsonb_build_object('messages', jsonb_build_array(jsonb_build_object('role', 'user',
                'content', 'bulk ' || i || CASE WHEN i % 100 = 0 THEN ' mail me at bulk' || i || '@example.com' ELSE '' END))),
              '{"choices":[]}', '{"status":"success"}', now() - i * interval '1 second', 100
         FROM generate_series(1, $2::int) AS i`,
      [aliceProject, ROWS],
    );
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/requests?model=bulk-export`);
    await page.getByRole("cell", { name: "bulk-export" }).first().waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export JSONL" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^requests-.*\.jsonl$/);
    const lines = readFileSync((await download.path())!, "utf8")
      .trimEnd()
      .split("\n");
    const exported = lines.map((l) => JSON.parse(l) as { id: string; model: string; request_body: { messages: { content: string }[] } });
    const expected = await db<{ id: string }>("SELECT id FROM llm_requests WHERE project_id = $1 AND model = 'bulk-export'", [aliceProject]);
    expect(exported).toHaveLength(ROWS);
    expect(new Set(exported.map((r) => r.id))).toEqual(new Set(expected.map((r) => r.id)));
    // PII stays masked in the file.
    const text = lines.join("\n");
    expect(text).not.toContain("@example.com");
    expect(exported.filter((r) => r.request_body.messages[0]!.content.includes("[EMAIL]"))).toHaveLength(Math.floor(ROWS / 100));
  }, 90_000);
});

/** Writes bench/results/dashboard.md from the timings of this run. */
function writeResults() {
  const lines = [
    "# Dashboard first render",
    "",
    `Measured by the browser tests (dashboard/test/browser/dashboard.test.ts) on ${new Date().toISOString().slice(0, 10)}, in Debian's Chromium (headless) against the local stack: \`wrangler pages dev\` serving the Vite build and the Pages Functions, the API worker under \`wrangler dev\`, embedded PostgreSQL. This machine: ${(globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 2} cores, shared with other test runs.`,
    "",
    "- **FCP**: Chromium's first-contentful-paint of the navigation.",
    "- **heading**: from `page.goto` until the page's `<h1>` is on screen (project pages first load the session's projects).",
    "- **data**: until the page's own data is on screen (the keys table, the usage meter, the members, the snippets).",
    "",
    "Each page is opened once in a fresh browser profile (cold browser cache for the first page); the stack has served the page, its assets and one API call before.",
    "",
    "Target: under 1,000 ms.",
    "",
    "| page | FCP (ms) | heading (ms) | data (ms) |",
    "|---|---:|---:|---:|",
    ...renders.map((r) => `| ${r.page} | ${r.fcpMs ?? "—"} | ${r.headingMs} | ${r.readyMs} |`),
    "",
  ];
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(join(ROOT, "bench/results/dashboard.md"), lines.join("\n"));
  console.log(lines.join("\n"));
}
