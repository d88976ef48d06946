/**
 * Reviews across a re-score and the Policy page's re-score and calibration (issue 33, points 3
 * and 4) in a real Chromium, with the real scorer worker beside the API (its queue consumer runs
 * the re-scoring job): an owner reviews an unsafe call in triage (each tab's count equals its
 * rows), changes the policy, re-scores from the Policy page and watches the job finish, sees the
 * calibration of the reviewed call, and finds the review beside the new score, flagged "Score
 * changed since review". axe-core on both pages in light and dark mode. Its own stack on ports
 * 8931/8932.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { openQueuedCall, seriousViolations } from "./browser";
import { db, openProjectPage, useOwnerStack } from "./owner-stack";
import { flaggedBy, saveFixedScores } from "../../../test/setup/browser-scores";

const SHOTS = join(import.meta.dirname, "../../../docs/screenshots");

/** Each triage tab's count (the definition beside its term) equals the rows its queue lists. */
async function expectTabsAgree(page: Page): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const tabs = { to_review: "To review", false_positive: "False positives", confirmed: "Confirmed", all: "Unsafe in total" } as const;
  for (const [value, term] of Object.entries(tabs)) {
    await page.getByLabel("Verdict").selectOption(value);
    const count = page
      .locator("dl div")
      .filter({ has: page.locator("dt", { hasText: new RegExp(`^${term}$`) }) })
      .locator("dd");
    await expect.poll(async () => /^\d+$/.test(await count.innerText()), { timeout: 15_000 }).toBe(true);
    const n = Number(await count.innerText());
    await expect.poll(() => page.getByRole("list", { name: "Queue" }).getByRole("button").count(), { message: term, timeout: 15_000 }).toBe(n);
    counts[value] = n;
  }
  await page.getByLabel("Verdict").selectOption("to_review");
  return counts;
}

async function expectAccessible(page: Page, heading: string) {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => localStorage.setItem("theme", t), theme);
    await page.reload();
    await page.getByRole("heading", { level: 1, name: heading }).waitFor();
    await page.waitForLoadState("networkidle");
    await expect(page.evaluate(() => document.documentElement.classList.contains("dark"))).resolves.toBe(theme === "dark");
    expect(await seriousViolations(page), `${theme} ${heading}`).toEqual([]);
  }
  await page.evaluate(() => localStorage.removeItem("theme"));
}

describe("Reviews across a re-score in Chromium", () => {
  const ctx = useOwnerStack("Rey", { ports: { api: 8931, dashboard: 8932 }, withScorer: true });

  it("Should keep a triage review through a policy change and a re-score started on the Policy page, and show it changed", async () => {
    const { page } = ctx.owner;
    await openProjectPage(page, "Policy");
    const projectId = /\/p\/([0-9a-f-]{36})\//.exec(page.url())![1]!;
    const [request] = await db<{ id: string }>(
      `INSERT INTO llm_requests (id, project_id, model, provider, request_body, response_body, scoring_state)
       VALUES (gen_random_uuid(), $1, 'review-model', 'openai', '{"messages": [{"role": "user", "content": "Tell me a story about a lighthouse."}]}',
         '{"choices": [{"message": {"role": "assistant", "content": "Once upon a time a keeper lit the lamp every night."}, "finish_reason": "stop"}]}', 'scored')
       RETURNING id`,
      [projectId],
    );
    const id = request!.id;
    // An unsafe verdict to review (as an older scorer might have given it).
    await saveFixedScores(inject("databaseUrl"), id, projectId, flaggedBy("content_safety", 4, "browser test: flagged"));

    // Triage: to review, then a false positive; every tab's count equals its rows.
    await page.goto(`${ctx.stack.dashboardUrl}/p/${projectId}/safety?scorer=content_safety`);
    await page.getByRole("heading", { level: 1, name: "Safety triage" }).waitFor();
    expect(await expectTabsAgree(page)).toEqual({ to_review: 1, false_positive: 0, confirmed: 0, all: 1 });
    const { drawer, card } = await openQueuedCall(page, "content_safety");
    await card.getByRole("button", { name: "Mark false positive" }).click();
    await card.getByText(/^Reviewed false positive by rey-/).waitFor();
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    expect(await expectTabsAgree(page)).toEqual({ to_review: 0, false_positive: 1, confirmed: 0, all: 1 });
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export reviewed calls (JSONL)" }).click();
    const file = await (await download).path();
    const { readFileSync } = await import("node:fs");
    const items = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string; expected: Record<string, string> });
    expect(items).toEqual([expect.objectContaining({ id, expected: { content_safety: "safe" } })]);
    await expectAccessible(page, "Safety triage");

    // A policy change, then a re-score from the Policy page, followed to the end.
    await openProjectPage(page, "Policy");
    const calibration = page.getByRole("table", { name: "Calibration of content_safety" });
    await calibration.getByText("content_safety: 0 confirmed, 1 false positives").waitFor();
    await expect(calibration.getByRole("row", { name: /^4 \(policy\)/ }).innerText()).resolves.toContain("1 of 1 (100%)");
    await page.getByLabel("jailbreak_detection unsafe from score").selectOption("3");
    await page.getByRole("button", { name: "Save policy" }).click();
    await page.getByText("Policy saved (version 1).").waitFor();
    await page.getByLabel("Calls from").selectOption("7");
    await page.getByRole("button", { name: "Re-score" }).click();
    const status = page.getByRole("status").filter({ has: page.getByRole("progressbar", { name: "Re-score progress" }) });
    await status.waitFor();
    await status.getByText(/^Re-score done: \d+ calls? re-scored\.$/).waitFor({ timeout: 60_000 });
    expect(page.url()).toMatch(/[?&]rescore=[0-9a-f-]{36}/);
    const [scored] = await db<{ policy_version: number; score_value: number }>(
      "SELECT policy_version, score_value FROM safety_scores WHERE request_id = $1 AND scorer_name = 'content_safety' AND superseded_at IS NULL",
      [id],
    );
    expect(scored!.policy_version).toBe(1);
    expect(scored!.score_value).toBeLessThan(4);
    // The calibration follows the new score: the false positive is no longer flagged at 4.
    await expect.poll(() => calibration.getByRole("row", { name: /^4 \(policy\)/ }).innerText(), { timeout: 15_000 }).toContain("0 of 1 (0%)");
    await expectAccessible(page, "Policy");
    await page.screenshot({ path: join(SHOTS, "policy-rescore-calibration.png"), fullPage: true });

    // The review beside the new score, flagged as changed; triage keeps it out of "to review".
    await page.goto(`${ctx.stack.dashboardUrl}/p/${projectId}/requests?open=${id}`);
    const after = page.getByRole("dialog", { name: "Request detail" }).getByRole("listitem").filter({ hasText: "content_safety" });
    await after.getByText(/^Reviewed false positive by rey-/).waitFor();
    await after.getByText("Score changed since review (reviewed: 4 of 5, unsafe, policy version 0)").waitFor();
    await expect(after.innerText()).resolves.toContain(`Score ${scored!.score_value} of 5`);
    await page.screenshot({ path: join(SHOTS, "review-changed-since.png"), fullPage: true });
    await page.goto(`${ctx.stack.dashboardUrl}/p/${projectId}/safety?scorer=content_safety`);
    await page.getByRole("heading", { level: 1, name: "Safety triage" }).waitFor();
    expect(await expectTabsAgree(page)).toEqual({ to_review: 0, false_positive: 0, confirmed: 0, all: 0 });
  }, 240_000);
});
