/**
 * The Policy page in a real Chromium, as an owner uses it (docs/policy.md): turn a scorer off,
 * change an unsafe_at, add an allow-list domain, choose masking, turn the guard-model judge on
 * with a monthly budget, save, see it stored and shown
 * again after a reload; a value the API refuses shows its 422 detail naming the field. Also the
 * billing page's retention line (docs/retention.md). Its own stack on ports 8767/8768.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { seriousViolations } from "./browser";
import { db, openProjectPage, useOwnerStack } from "./owner-stack";

describe("Policy page in Chromium", () => {
  const ctx = useOwnerStack("Pia", { ports: { api: 8767, dashboard: 8768 } });

  it("Should save a policy an admin edits, store it, and show it again after a reload", async () => {
    const { page } = ctx.owner;
    await openProjectPage(page, "Policy");
    await page.getByText("Version 0 · defaults").waitFor();
    const projectId = /\/p\/([0-9a-f-]{36})\//.exec(page.url())![1]!;

    await page.getByLabel("Run unbounded_consumption").uncheck();
    await page.getByLabel("jailbreak_detection unsafe from score").selectOption("3");
    await page.getByLabel("Not personal data (pii_detection allow list)").fill("support@acme.example\n@acme.example");
    await page.getByLabel("Mask personal data before storage").check();
    await page.getByLabel("Ask the guard model").selectOption("uncertain");
    await page.getByLabel("Guard-model calls per month").fill("250");
    await page.getByRole("button", { name: "Save policy" }).click();
    await page.getByText("Policy saved (version 1).").waitFor();

    const [row] = await db<{
      version: number;
      policy: {
        store_pii: string;
        judge: string;
        judge_monthly_budget: number;
        scorers: Record<string, { enabled: boolean; unsafe_at: number; allow?: string[] }>;
      };
    }>("SELECT version, policy FROM project_policies WHERE project_id = $1", [projectId]);
    expect(row!.version).toBe(1);
    expect(row!.policy.store_pii).toBe("mask");
    expect(row!.policy).toMatchObject({ judge: "uncertain", judge_monthly_budget: 250 });
    expect(row!.policy.scorers.unbounded_consumption!.enabled).toBe(false);
    expect(row!.policy.scorers.jailbreak_detection!.unsafe_at).toBe(3);
    expect(row!.policy.scorers.pii_detection!.allow).toEqual(["support@acme.example", "@acme.example"]);
    expect(row!.policy.scorers.content_safety).toEqual({ enabled: true, unsafe_at: 4 });

    await page.reload();
    await page.getByText(/^Version 1 · changed/).waitFor();
    expect(await page.getByLabel("Run unbounded_consumption").isChecked()).toBe(false);
    expect(await page.getByLabel("Run content_safety").isChecked()).toBe(true);
    expect(await page.getByLabel("jailbreak_detection unsafe from score").inputValue()).toBe("3");
    expect(await page.getByLabel("Not personal data (pii_detection allow list)").inputValue()).toBe("support@acme.example\n@acme.example");
    expect(await page.getByLabel("Mask personal data before storage").isChecked()).toBe(true);
    expect(await page.getByLabel("Ask the guard model").inputValue()).toBe("uncertain");
    expect(await page.getByLabel("Guard-model calls per month").inputValue()).toBe("250");
    await page.getByText("0 used this month (UTC).", { exact: false }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // README screenshot of the page as a person sees it.
    await page.screenshot({ path: join(import.meta.dirname, "../../../docs/screenshots/policy.png"), fullPage: true });
  });

  it("Should show the API's refusal naming the field, and keep the stored policy", async () => {
    const { page } = ctx.owner;
    await page.getByLabel("Not personal data (pii_detection allow list)").fill("@not a domain");
    await page.getByRole("button", { name: "Save policy" }).click();
    await page.getByText(/^scorers\.pii_detection\.allow\.0: /).waitFor();
    const projectId = /\/p\/([0-9a-f-]{36})\//.exec(page.url())![1]!;
    const [row] = await db<{ version: number }>("SELECT version FROM project_policies WHERE project_id = $1", [projectId]);
    expect(row!.version).toBe(1);
  });

  it("Should show a re-scored call's history in the request drawer", async () => {
    const { page } = ctx.owner;
    const projectId = /\/p\/([0-9a-f-]{36})\//.exec(page.url())![1]!;
    const [request] = await db<{ id: string }>(
      `INSERT INTO llm_requests (id, project_id, model, provider, request_body, response_body, scoring_state)
       VALUES (gen_random_uuid(), $1, 'gpt-4o-mini', 'openai', '{"messages": [{"role": "user", "content": "tell me a story"}]}', null, 'scored') RETURNING id`,
      [projectId],
    );
    await db(
      `INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale, scorer_version, scored_at, superseded_at, created_at)
       SELECT v.*, r.created_at FROM (VALUES (gen_random_uuid(), $1::uuid, $2::uuid, 'content_safety', 4::smallint, 'unsafe', 'old', 'model-aaaaaaaaaaaa', '2026-11-01T10:00:00Z'::timestamptz, '2026-11-20T10:00:00Z'::timestamptz),
              (gen_random_uuid(), $1::uuid, $2::uuid, 'content_safety', 2::smallint, 'safe', 'new', 'model-bbbbbbbbbbbb', '2026-11-20T10:00:00Z'::timestamptz, NULL)) AS v
       JOIN llm_requests r ON r.id = $1::uuid`,
      [request!.id, projectId],
    );
    await page.goto(`${ctx.stack.dashboardUrl}/p/${projectId}/requests?open=${request!.id}`);
    const drawer = page.getByRole("dialog", { name: "Request detail" });
    await drawer.getByText("re-scored 2026-11-20: 4 -> 2, scorer_version model-bbbbbbbbbbbb").waitFor();
    await drawer.getByRole("button", { name: "Close" }).click();
  });

  it("Should show the tier's retention on the billing page", async () => {
    const { page } = ctx.owner;
    await page.getByRole("link", { name: "Billing" }).click();
    await page.getByText("Data retention: calls and their scores are kept 30 days (hourly totals stay)").waitFor();
  });
});
