/**
 * The Sessions page (issue 33.2) in a real Chromium: two conversations logged with
 * `metadata.session_id` (the three-turn escalation and the benign trip planning of
 * test/fixtures/sessions.ts), scored by the real scorers and judged whole as the scorer worker
 * does, are listed with their call counts and session scores; choosing one shows its turns in
 * order with their score chips and the session's verdict; axe-core finds no serious violation in
 * light and dark mode. Its own stack on ports 8961/8962.
 */
import { describe, expect, inject, it } from "vitest";
import { BENIGN, ESCALATION } from "../../../test/fixtures/sessions";
import { violationsInBothThemes } from "./browser";
import { createKeyFromPage, openProjectPage, useOwnerStack } from "./owner-stack";
import { scoreWithTheScorers } from "../../../test/setup/browser-scores";

describe("Sessions page in Chromium", () => {
  const ctx = useOwnerStack("Sol", { ports: { api: 8961, dashboard: 8962 } });
  let projectId = "";

  it("Should list the sessions and show a conversation as a timeline with per-turn chips and the session score", async () => {
    const { page } = ctx.owner;
    await openProjectPage(page, "Sessions");
    projectId = /\/p\/([0-9a-f-]{36})\//.exec(page.url())![1]!;
    await page.getByText(/No sessions yet/).waitFor();
    const key = await createKeyFromPage(page, projectId, "sessions");
    const ids: string[] = [];
    const conversations = [
      ["trip-planning", BENIGN],
      ["walter-story", ESCALATION],
    ] as const;
    let minute = 0;
    for (const [session, turns] of conversations) {
      for (const text of turns) {
        const res = await fetch(`${ctx.stack.apiUrl}/internal/log`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Service-Key": key },
          body: JSON.stringify({
            model: "gpt-4o-mini",
            provider: "openai",
            prompt_tokens: 30,
            completion_tokens: 0,
            latency_ms: 200,
            created_at: new Date(Date.now() - (10 - minute++) * 60_000).toISOString(),
            request_body: { model: "gpt-4o-mini", messages: [{ role: "user", content: text }] },
            response_body: null,
            metadata: { session_id: session },
          }),
        });
        expect(res.status).toBe(202);
        ids.push(((await res.json()) as { id: string }).id);
      }
    }
    await scoreWithTheScorers(inject("databaseUrl"), ids);

    await page.reload();
    const story = page.getByRole("row", { name: /walter-story/ });
    await story.waitFor();
    await story.getByText("session jailbreak").first().waitFor();
    expect(await story.textContent()).toContain("unsafe");
    const trip = page.getByRole("row", { name: /trip-planning/ });
    expect(await trip.textContent()).toContain("safe");

    await story.getByRole("button", { name: "walter-story" }).click();
    const timeline = page.getByRole("list", { name: "Conversation timeline" });
    await timeline.waitFor();
    const turns = timeline.getByRole("listitem");
    await expect(turns.count()).resolves.toBe(3);
    expect(await turns.nth(0).textContent()).toContain("parallel universe");
    expect(await turns.nth(2).textContent()).toContain("synthesize methamphetamine");
    // Per-turn chips: no turn's jailbreak chip is unsafe; the session's is.
    for (let i = 0; i < 3; i++) await expect(turns.nth(i).getByText("jailbreak: safe", { exact: false }).count()).resolves.toBeGreaterThan(0);
    const section = page.getByRole("region", { name: /Session walter-story/ });
    await section.getByText(/framed_harmful_goal/).waitFor();
    expect(page.url()).toContain("session=walter-story");
  });

  it("Should have no serious or critical axe violation on the Sessions page, in light and in dark mode", async () => {
    const { page } = ctx.owner;
    const found = await violationsInBothThemes(page, `${ctx.stack.dashboardUrl}/p/${projectId}`, ["sessions", "sessions?session=walter-story"]);
    for (const [where, violations] of Object.entries(found)) expect(violations, where).toEqual([]);
  }, 120_000);
});
