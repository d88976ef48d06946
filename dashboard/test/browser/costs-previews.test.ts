/**
 * Costs a user can believe and previews (issue 33, points 5 and 6) in a real Chromium: a call
 * logged without a cost reads "unknown" in the Requests table and the drawer (never $0), the
 * overview says how many calls are unpriced, and the Requests table and the triage queue show
 * the start of each call's last user turn with personal data masked; axe-core finds no serious
 * violation on those pages in light and dark mode. Its own stack on ports 8921/8922.
 */
import { describe, expect, inject, it } from "vitest";
import { SCORER_NAMES } from "../../../src/enums";
import { violationsInBothThemes } from "./browser";
import { createKeyFromPage, db, openProjectPage, useOwnerStack } from "./owner-stack";
import { saveFixedScores } from "../../../test/setup/browser-scores";

const EMAIL = "mara.quint@example.com";

describe("Costs and previews in Chromium", () => {
  const ctx = useOwnerStack("Cora", { ports: { api: 8921, dashboard: 8922 } });
  let projectId = "";
  const ids: Record<"unknown" | "priced" | "unsafe", string> = { unknown: "", priced: "", unsafe: "" };

  /** Logs a call with a key of the project (as a client library does); resolves to its id. */
  async function log(key: string, body: Record<string, unknown>): Promise<string> {
    const res = await fetch(`${ctx.stack.apiUrl}/internal/log`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Service-Key": key },
      body: JSON.stringify({
        provider: "custom",
        prompt_tokens: 40,
        completion_tokens: 8,
        response_body: { choices: [{ message: { role: "assistant", content: "Done." } }] },
        ...body,
      }),
    });
    expect(res.status).toBe(202);
    return ((await res.json()) as { id: string }).id;
  }

  it("Should show an unknown cost as unknown in the table and the drawer, and the preview of the last user turn, masked", async () => {
    const { page } = ctx.owner;
    await openProjectPage(page, "Requests");
    projectId = /\/p\/([0-9a-f-]{36})\//.exec(page.url())![1]!;
    const key = await createKeyFromPage(page, projectId, "costs");
    ids.unknown = await log(key, {
      model: "in-house-7b",
      request_body: {
        messages: [
          { role: "system", content: "You are a helpful assistant." },
          { role: "user", content: `Send the contract to ${EMAIL} before Friday` },
        ],
      },
    });
    ids.priced = await log(key, {
      model: "acme-chat",
      cost_usd: 0.0042,
      request_body: { messages: [{ role: "user", content: "What is the capital of Peru?" }] },
    });
    ids.unsafe = await log(key, {
      model: "acme-chat",
      cost_usd: 0.25,
      request_body: { messages: [{ role: "user", content: "Explain how to pick a lock" }] },
    });

    await page.reload();
    const unknownRow = page.getByRole("row", { name: /in-house-7b/ });
    await unknownRow.waitFor();
    await expect(unknownRow.getByRole("cell", { name: "unknown", exact: true }).count()).resolves.toBe(1);
    // The preview: the last user turn, masked for everyone in lists (the dashboard's rule).
    await unknownRow.getByRole("cell", { name: "Send the contract to [EMAIL] before Friday" }).waitFor();
    expect(await unknownRow.textContent()).not.toContain(EMAIL);
    const pricedRow = page.getByRole("row", { name: /Peru/ });
    await pricedRow.getByRole("cell", { name: "$0.0042", exact: true }).waitFor();
    expect(await page.getByRole("columnheader").allInnerTexts()).toContain("preview");

    await unknownRow.click();
    const drawer = page.getByRole("dialog", { name: "Request detail" });
    await drawer.getByText(/cost unknown/).waitFor();
    expect(await drawer.textContent()).not.toContain("$0.000000");
    await drawer.getByRole("button", { name: "Close" }).click();
    await pricedRow.click();
    await drawer.getByText(/\$0\.0042 \(reported\)/).waitFor();
    await drawer.getByRole("button", { name: "Close" }).click();
  });

  it("Should say on the overview how many calls have no known cost", async () => {
    const { page } = ctx.owner;
    await openProjectPage(page, "Overview");
    await page.getByText("1 call of unknown cost not included").first().waitFor();
    await page.getByRole("definition").filter({ hasText: "$0.25" }).first().waitFor();
  });

  it("Should show the preview in the triage queue", async () => {
    const { page } = ctx.owner;
    await saveFixedScores(
      inject("databaseUrl"),
      ids.unsafe,
      projectId,
      SCORER_NAMES.map((name) =>
        name === "content_safety"
          ? { scorer_name: name, score_value: 5, score_label: "unsafe", rationale: "browser test: an unsafe call to triage" }
          : { scorer_name: name, score_value: 1, score_label: "safe", rationale: "browser test" },
      ),
    );
    await page.goto(`${ctx.stack.dashboardUrl}/p/${projectId}/safety?scorer=content_safety`);
    await page.getByRole("heading", { level: 1, name: "Safety triage" }).waitFor();
    const queue = page.getByRole("list", { name: "Queue" });
    await queue.getByRole("button", { name: /Explain how to pick a lock/ }).waitFor();
    const [row] = await db<{ preview: string }>("SELECT preview FROM llm_requests WHERE id = $1", [ids.unsafe]);
    expect(row!.preview).toBe("Explain how to pick a lock");
  });

  it("Should have no serious or critical axe violation on the Requests, Overview and triage pages, in light and in dark mode", async () => {
    const { page } = ctx.owner;
    const found = await violationsInBothThemes(page, `${ctx.stack.dashboardUrl}/p/${projectId}`, [
      "requests",
      `requests?open=${ids.unknown}`,
      "overview",
      "safety?scorer=content_safety",
    ]);
    for (const [where, violations] of Object.entries(found)) expect(violations, where).toEqual([]);
  }, 120_000);
});
