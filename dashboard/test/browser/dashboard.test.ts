/**
 * The dashboard in a real Chromium, acting as its users do (roles, labels, text): sign-up,
 * isolation between accounts, the key lifecycle with the API refusing a revoked key, billing
 * upgrade through the Stripe stand-in, role enforcement, the Requests page live from the first
 * call, scores and their review in triage, charts with tooltips and bucket clicks, projects,
 * "not found" states, axe-core on every page in light and dark mode. Screenshots go to
 * docs/screenshots/, first-render times to bench/results/dashboard.md.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ROOT } from "../../../scripts/lib/postgres";
import { openPerson, openQueuedCall, type Person, seriousViolations, signUp } from "./browser";
import { flaggedBy, saveFixedScores, scoreWithTheScorers } from "../../../test/setup/browser-scores";
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

/**
 * Opens `path`, waits for its heading, then for `ready` (the page's data), recording the times;
 * `later` records one more milestone of the same navigation as its own row (e.g. charts drawn).
 */
async function visit(
  page: Page,
  path: string,
  heading: string,
  name: string,
  ready: (page: Page) => Locator,
  later?: { name: string; ready: (page: Page) => Locator },
): Promise<void> {
  const started = performance.now();
  await page.goto(`${stack.dashboardUrl}${path}`);
  await page.getByRole("heading", { level: 1, name: heading }).waitFor();
  const headingMs = Math.round(performance.now() - started);
  await ready(page).first().waitFor();
  const readyMs = Math.round(performance.now() - started);
  const fcp = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null);
  renders.push({ page: name, fcpMs: fcp === null ? null : Math.round(fcp), headingMs, readyMs });
  if (later) {
    await later.ready(page).first().waitFor();
    renders.push({ page: later.name, fcpMs: null, headingMs, readyMs: Math.round(performance.now() - started) });
  }
}

async function expectAccessible(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

/** POST /internal/log with an API key, as a client library does: a gpt-4o-mini call on openai, with `body`'s fields. */
function postLog(key: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${stack.apiUrl}/internal/log`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Service-Key": key },
    body: JSON.stringify({ model: "gpt-4o-mini", provider: "openai", ...body }),
  });
}

/** Logs one call with an API key (`postLog`); resolves to the API's status. */
async function logWith(key: string): Promise<number> {
  const res = await postLog(key, { request_body: { messages: [{ role: "user", content: "hi" }] }, response_body: { ok: true } });
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

/**
 * A new key of `projectId` (made with the page's session) and a function logging calls with it
 * (`postLog`); each call resolves to the request id.
 */
async function logger(page: Page, projectId: string, keyName: string): Promise<(body: Record<string, unknown>) => Promise<string>> {
  const created = await fetchInPage(page, `/api/projects/${projectId}/keys`, { method: "POST", json: { name: keyName } });
  expect(created.status, created.body).toBe(201);
  const { key } = JSON.parse(created.body) as { key: string };
  return async (body) => {
    const res = await postLog(key, { response_body: { choices: [{ message: { role: "assistant", content: "Sure." } }] }, ...body });
    const answer = await res.text();
    expect(res.status, answer).toBe(202);
    return (JSON.parse(answer) as { id: string }).id;
  };
}

/** The newest request of a project. */
async function firstRequest(projectId: string): Promise<string> {
  const [row] = await db<{ id: string }>("SELECT id FROM llm_requests WHERE project_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1", [projectId]);
  return row!.id;
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
    await signUp(alice, "Alice", aliceEmail, PASSWORD);
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
    // Rotation asks first: the old key stops working a minute later.
    await expect(page.getByRole("alertdialog").innerText()).resolves.toContain("60 seconds");
    await page.getByRole("button", { name: "Rotate key" }).click();
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
    await signUp(bob, "Bob", bobEmail, PASSWORD);
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

  it("Should show logged calls in the Requests table with readable scores, keep filters in the URL, mask PII in the detail, and add new calls live", async () => {
    const { page } = alice;
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/keys`);
    const log = await logger(page, aliceProject, "requests-page");
    const claude = await log({
      provider: "anthropic",
      model: "claude-test",
      request_body: { messages: [{ role: "user", content: "write to jane.doe@example.com please" }] },
    });
    // A plain, harmless call with its real answer.
    const plain = await log({
      request_body: { messages: [{ role: "user", content: "What is the capital of France?" }] },
      response_body: { choices: [{ message: { role: "assistant", content: "The capital of France is Paris." } }] },
    });
    await scoreWithTheScorers(inject("databaseUrl"), [claude, plain]);
    await visit(page, `/p/${aliceProject}/requests`, "Requests", "Requests", (p) => p.getByRole("cell", { name: "claude-test" }));
    // Chips name their scorer and say their state in words (not only by colour); a legend explains them.
    const chips = page.getByRole("row").filter({ hasText: "claude-test" });
    await expect(chips.innerText()).resolves.toMatch(/content[\s\S]*PII[\s\S]*jailbreak[\s\S]*poisoning[\s\S]*vector[\s\S]*consumption/);
    await expect(chips.getByText(/^PII: (safe|unsafe|unscored)/).count()).resolves.toBe(1);
    await page.getByRole("list", { name: "Legend of the score chips" }).getByText("unsafe", { exact: true }).first().waitFor();
    await expectAccessible(page);
    await shot(page, "requests");
    // The filter lives in the URL: opening it shows only the matching row.
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/requests?provider=anthropic`);
    await page.getByRole("cell", { name: "claude-test" }).waitFor();
    await expect(page.getByRole("cell", { name: "gpt-4o-mini" }).count()).resolves.toBe(0);
    await expect(page.getByLabel("Provider", { exact: true }).inputValue()).resolves.toBe("anthropic");
    // The detail: scores first, as cards with value and rationale; the conversation as chat, the e-mail address masked.
    await page.getByRole("cell", { name: "claude-test" }).click();
    const drawer = page.getByRole("dialog", { name: "Request detail" });
    await drawer.getByText("write to [EMAIL] please").waitFor();
    expect(await drawer.innerText()).not.toContain("jane.doe@example.com");
    await expect(drawer.getByRole("listitem").filter({ hasText: "pii_detection" }).innerText()).resolves.toMatch(/Safe|Unsafe|Unscored/);
    await shot(page, "request-detail");
    // Escape closes the drawer (and the address forgets it).
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    expect(new URL(page.url()).searchParams.has("open")).toBe(false);
    // j/k move to the next (older) and previous (newer) call of the list.
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/requests?open=${plain}`);
    await drawer.getByText("What is the capital of France?").waitFor();
    await page.keyboard.press("j");
    await page.waitForURL((u) => u.searchParams.get("open") === claude);
    await drawer.getByText("write to [EMAIL] please").waitFor();
    await page.keyboard.press("k");
    await page.waitForURL((u) => u.searchParams.get("open") === plain);
    await drawer.getByRole("button", { name: "Close" }).click();
    // Live: a call logged now appears at the top without a reload, pending, and its scores fill in.
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/requests`);
    await page.getByRole("cell", { name: "claude-test" }).waitFor();
    const live = await log({ model: "live-model", request_body: { messages: [{ role: "user", content: "live" }] } });
    const liveRow = page.getByRole("row").filter({ hasText: "live-model" });
    await liveRow.waitFor({ timeout: 15_000 });
    await expect(page.getByRole("row").nth(1).innerText()).resolves.toContain("live-model");
    await expect(liveRow.innerText()).resolves.toContain("pending");
    await scoreWithTheScorers(inject("databaseUrl"), [live]);
    await expect.poll(() => liveRow.innerText(), { timeout: 15_000 }).not.toContain("pending");
  }, 90_000);

  it("Should chart the traffic with a tooltip per bucket, and open a bucket's requests on click", async () => {
    const { page } = alice;
    await visit(page, `/p/${aliceProject}/overview`, "Overview", "Overview (totals)", (p) => p.getByRole("definition").filter({ hasText: /^\d/ }), {
      name: "Overview (charts drawn)",
      ready: (p) => p.getByRole("figure").filter({ hasText: "Requests" }).locator("svg"),
    });
    const [{ n }] = (await db<{ n: number }>("SELECT count(*)::int AS n FROM llm_requests WHERE project_id = $1 AND created_at >= date_trunc('hour', now())", [
      aliceProject,
    ])) as [{ n: number }];
    expect(n).toBeGreaterThan(0);
    // The last bar is the current hour: hovering it shows its value, clicking it opens its requests.
    const chart = page.getByRole("figure").filter({ hasText: /^Requests/ });
    const surface = chart.locator("svg.recharts-surface").first();
    const box = (await surface.boundingBox())!;
    const at = { x: box.x + box.width - 14, y: box.y + box.height / 2 };
    await page.mouse.move(at.x, at.y);
    const tooltip = chart.getByRole("status");
    await tooltip.getByText(`Requests: ${n}`).waitFor();
    await expect(tooltip.innerText()).resolves.toContain("Click to see these requests");
    await expectAccessible(page);
    await shot(page, "overview");
    await page.mouse.click(at.x, at.y);
    await page.waitForURL(/\/requests\?start=.*&end=/);
    const url = new URL(page.url());
    const start = new Date(url.searchParams.get("start")!);
    expect(start.getUTCMinutes()).toBe(0);
    expect(new Date(url.searchParams.get("end")!).getTime() - start.getTime()).toBe(3_600_000);
    await page.getByRole("cell", { name: "live-model" }).waitFor();
    // The count arrives after the rows ("counting…" until then).
    await page.getByRole("heading", { level: 1, name: "Requests" }).locator("..").getByText(`${n} matching`).waitFor();
  }, 90_000);

  it("Should take a reviewed score out of the triage queue, update the counts, and filter by verdict", async () => {
    const { page } = alice;
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/keys`);
    const log = await logger(page, aliceProject, "review");
    const id = await log({ model: "review-model", request_body: { messages: [{ role: "user", content: "how do I pick a lock" }] } });
    await saveFixedScores(
      inject("databaseUrl"),
      id,
      aliceProject,
      flaggedBy("content_safety", 5, "browser test: an unsafe verdict to review", "@cf/meta/llama-guard-3-8b"),
    );
    await visit(page, `/p/${aliceProject}/safety?scorer=content_safety`, "Safety triage", "Safety triage", (p) =>
      p.getByRole("list", { name: "Queue" }).getByRole("button", { name: /review-model/ }),
    );
    const toReview = async () => Number((await page.getByRole("definition").first().innerText()).replace(/\D/g, ""));
    await expect.poll(toReview).toBeGreaterThanOrEqual(1);
    const before = await toReview();
    await expectAccessible(page);
    await shot(page, "safety-triage");
    // Review in the drawer; Escape closes it; the call has left "to review" and the count dropped.
    const { drawer, card: contentSafety } = await openQueuedCall(page, "content_safety");
    await expect(contentSafety.innerText()).resolves.toContain("Score 5 of 5");
    // A score a guard model decided says which (docs/scoring.md "Guard-model tier").
    await expect(contentSafety.innerText()).resolves.toContain("Judged by @cf/meta/llama-guard-3-8b");
    await expect(drawer.getByRole("listitem").filter({ hasText: "pii_detection" }).innerText()).resolves.not.toContain("Judged by");
    await contentSafety.getByRole("button", { name: "Mark false positive" }).click();
    await contentSafety.getByText(`Reviewed false positive by ${aliceEmail}`).waitFor();
    await shot(page, "request-detail-reviewed");
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    await expect.poll(toReview).toBe(before - 1);
    await expect(
      page
        .getByRole("list", { name: "Queue" })
        .getByRole("button", { name: /review-model/ })
        .count(),
    ).resolves.toBe(0);
    // Filtered by verdict, the reviewed call is there.
    await page.getByLabel("Verdict").selectOption("false_positive");
    await page
      .getByRole("list", { name: "Queue" })
      .getByRole("button", { name: /review-model/ })
      .waitFor();
    const stored = await db<{ verdict: string; reviewer: string; scorer_name: string }>(
      "SELECT verdict, reviewer, scorer_name FROM score_reviews WHERE request_id = $1",
      [id],
    );
    expect(stored).toEqual([{ verdict: "false_positive", reviewer: aliceEmail, scorer_name: "content_safety" }]);
    // The Requests list filtered by the verdict (from the filter control, then the URL) shows only that call.
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/requests`);
    await page.getByRole("cell", { name: "claude-test" }).waitFor();
    await page.getByLabel("Reviewed", { exact: true }).selectOption("false_positive");
    await page.waitForURL(/reviewed=false_positive/);
    await page.getByRole("cell", { name: "review-model" }).waitFor();
    // The address changes first; the table follows when the filtered page has loaded.
    await expect.poll(() => page.getByRole("cell", { name: "claude-test" }).count()).toBe(0);
    await expect(page.getByRole("cell", { name: "gpt-4o-mini" }).count()).resolves.toBe(0);
    await page.getByRole("cell", { name: "review-model" }).waitFor();
  }, 90_000);

  it("Should export every row of a filter larger than one database page, and count calls newer than an older page", async () => {
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

    // On an older page new calls are not inserted (the reader stays where they are): "1 new" leads back to the top.
    await page.getByRole("button", { name: "Older" }).click();
    await page.waitForURL(/cursor=/);
    await page.getByRole("cell", { name: "bulk-export" }).first().waitFor();
    await db(
      `INSERT INTO llm_requests (id, project_id, model, provider, request_body, response_body, metadata, created_at, latency_ms)
       VALUES (gen_random_uuid(), $1, 'bulk-export', 'openai', '{"messages":[{"role":"user","content":"the newest"}]}', '{"choices":[]}', '{"status":"success"}', now(), 100)`,
      [aliceProject],
    );
    await page.getByRole("button", { name: "1 new" }).click({ timeout: 25_000 });
    await page.waitForURL((u) => !u.searchParams.has("cursor"));
    const [newest] = await db<{ created_at: Date }>(
      "SELECT created_at FROM llm_requests WHERE project_id = $1 AND model = 'bulk-export' ORDER BY created_at DESC LIMIT 1",
      [aliceProject],
    );
    const shownAt = await page.evaluate((iso) => new Date(iso).toLocaleString(), newest!.created_at.toISOString());
    await expect.poll(() => page.getByRole("row").nth(1).innerText()).toContain(shownAt);
    await page.getByRole("row").nth(1).click();
    await page.getByRole("dialog", { name: "Request detail" }).getByText("the newest").waitFor();
  }, 90_000);

  it("Should create, rename and delete projects, and fill a new project's empty Requests page with its first calls within 15 s", async () => {
    const { page } = alice;
    await visit(page, `/p/${aliceProject}/projects`, "Projects", "Projects", (p) => p.getByRole("row", { name: /My first project/ }));
    await expectAccessible(page);
    await page.getByLabel("Project name").fill("Live demo");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.waitForURL(/\/p\/[0-9a-f-]{36}\/requests/);
    const demo = /\/p\/([0-9a-f-]{36})\//.exec(page.url())![1]!;
    expect(demo).not.toBe(aliceProject);
    // Empty: waiting for the first call, with the snippets; no reload from here on.
    await page.getByText("Waiting for your first call").waitFor();
    await page.getByText("SIGHTLINE_BASE_URL=").waitFor();
    await expectAccessible(page);
    await shot(page, "requests-empty");
    const log = await logger(page, demo, "first calls");
    await log({ model: "first-call", request_body: { messages: [{ role: "user", content: "first" }] } });
    await log({ model: "first-call", request_body: { messages: [{ role: "user", content: "second" }] } });
    await expect.poll(() => page.getByRole("cell", { name: "first-call" }).count(), { timeout: 15_000 }).toBe(2);
    await expect(page.getByText("Waiting for your first call").count()).resolves.toBe(0);

    // Rename it; the switcher follows.
    await page.goto(`${stack.dashboardUrl}/p/${demo}/projects`);
    await page.getByRole("button", { name: "Rename Live demo" }).click();
    await page.getByLabel("New name of Live demo").fill("Live demo (renamed)");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("row", { name: /Live demo \(renamed\)/ }).waitFor();
    await page.getByRole("combobox", { name: "Project" }).locator("option", { hasText: "Live demo (renamed)" }).waitFor({ state: "attached" });
    await shot(page, "projects");

    // Delete it (the open project): confirmation first, then another project opens and it is gone.
    await page.getByRole("button", { name: "Delete Live demo (renamed)" }).click();
    await page.getByRole("alertdialog").waitFor();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Delete project" }).click();
    await page.waitForURL((u) => u.pathname === `/p/${aliceProject}/projects`);
    await expect.poll(() => page.getByRole("row", { name: /Live demo/ }).count()).toBe(0);
    const listed = await fetchInPage(page, "/api/projects", { method: "GET" });
    expect(listed.body).not.toContain(demo);
    await expect(fetchInPage(page, `/api/projects/${demo}/requests`, { method: "GET" }).then((r) => r.status)).resolves.toBe(404);
  }, 90_000);

  it("Should answer bad ids and unknown addresses with a not-found state, never a blank page or a 500", async () => {
    const { page } = alice;
    const drawer = page.getByRole("dialog", { name: "Request detail" });
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/requests?open=not-a-uuid`);
    await drawer.getByRole("heading", { name: "Request not found" }).waitFor();
    await expectAccessible(page);
    await shot(page, "request-not-found");
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/requests?open=0190a000-0000-7000-8000-000000000000`);
    await drawer.getByRole("heading", { name: "Request not found" }).waitFor();
    for (const path of [`/api/projects/${aliceProject}/requests/not-a-uuid`, `/api/projects/${aliceProject}/requests/0190a000-0000-7000-8000-000000000000`]) {
      const res = await fetchInPage(page, path, { method: "GET" });
      expect([404, 422], `${path}: ${res.status} ${res.body}`).toContain(res.status);
      expect(JSON.parse(res.body)).toHaveProperty("detail");
    }
    for (const path of ["/no/such/page", `/p/${aliceProject}/no-such-page`]) {
      await page.goto(`${stack.dashboardUrl}${path}`);
      await page.getByRole("heading", { level: 1, name: "Not found" }).waitFor();
      await expect(page.getByRole("link", { name: "Go to your projects" }).count()).resolves.toBe(1);
      await expectAccessible(page);
    }
  });

  it("Should clip a 725,000-character prompt until asked, with the scores above it", async () => {
    const { page } = alice;
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/keys`);
    const log = await logger(page, aliceProject, "long prompt");
    const words = "lorem ipsum dolor sit amet ".repeat(Math.ceil(725_000 / 27)).slice(0, 725_000);
    const id = await log({ model: "long-prompt", request_body: { messages: [{ role: "user", content: words }] } });
    await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/requests?open=${id}`);
    const drawer = page.getByRole("dialog", { name: "Request detail" });
    const showAll = drawer.getByRole("button", { name: "Show all (725,000 characters)" });
    await showAll.waitFor();
    expect((await drawer.innerText()).length).toBeLessThan(20_000);
    const text = await drawer.innerText();
    expect(text.indexOf("Safety")).toBeLessThan(text.indexOf("lorem ipsum"));
    await showAll.click();
    await expect.poll(async () => (await drawer.innerText()).length).toBeGreaterThan(725_000);
  }, 90_000);

  it("Should have no serious or critical axe violation on any page, in light and in dark mode", async () => {
    const { page } = alice;
    const pages = ["start", "overview", "requests", `requests?open=${await firstRequest(aliceProject)}`, "safety", "keys", "billing", "members", "projects"];
    for (const theme of ["light", "dark"] as const) {
      await page.evaluate((t) => localStorage.setItem("theme", t), theme);
      for (const path of pages) {
        await page.goto(`${stack.dashboardUrl}/p/${aliceProject}/${path}`);
        await page.getByRole("heading", { level: 1 }).waitFor();
        await page.waitForLoadState("networkidle");
        await expect(page.evaluate(() => document.documentElement.classList.contains("dark"))).resolves.toBe(theme === "dark");
        expect(await seriousViolations(page), `${theme} ${path}`).toEqual([]);
        if (theme === "dark" && (path === "requests" || path === "overview")) await shot(page, `${path}-dark`);
      }
    }
    const { page: other } = bob;
    for (const theme of ["light", "dark"] as const) {
      await other.evaluate((t) => localStorage.setItem("theme", t), theme);
      for (const path of ["/sign-in", "/sign-up", "/no/such/page"]) {
        await other.goto(`${stack.dashboardUrl}${path}`);
        await other.getByRole("heading", { level: 1 }).waitFor();
        expect(await seriousViolations(other), `${theme} ${path}`).toEqual([]);
      }
    }
    await page.evaluate(() => localStorage.removeItem("theme"));
  }, 120_000);
});

/** Writes bench/results/dashboard.md from the timings of this run. */
function writeResults() {
  const lines = [
    "# Dashboard first render",
    "",
    `Measured by the browser tests (dashboard/test/browser/dashboard.test.ts) on ${new Date().toISOString().slice(0, 10)}, in Debian's Chromium (headless) against the local stack: \`wrangler pages dev\` serving the Vite build and the Pages Functions, the API worker under \`wrangler dev\`, embedded PostgreSQL. This machine: ${(globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 2} cores, shared with other test runs (load average over the last 5 minutes at the end of this run: ${loadavg()[1]!.toFixed(1)}).`,
    "",
    "- **FCP**: Chromium's first-contentful-paint of the navigation.",
    "- **heading**: from `page.goto` until the page's `<h1>` is on screen (project pages first load the session's projects).",
    "- **data**: until the page's own data is on screen (the keys table, the usage meter, the members, the snippets, the Overview's totals; \"Overview (charts drawn)\": until its first chart is drawn, Recharts being loaded on demand).",
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
