/**
 * Billing in both directions through the local Stripe stand-in, in Chromium: upgrade through
 * Checkout, then "Manage billing" opens the stand-in's Billing Portal page (not a raw JSON 401),
 * a plan change there sends the signed `customer.subscription.updated` Stripe would, and back on
 * the dashboard the tier has moved. Its stack has ports of its own (8741, 8742).
 */
import { describe, expect, it } from "vitest";
import { useOwnerStack } from "./owner-stack";

describe("Billing portal (Stripe stand-in) in Chromium", () => {
  const ctx = useOwnerStack("Portia", { ports: { api: 8741, dashboard: 8742 } });

  it("Should change the plan in the portal and show the new tier back on the billing page", async () => {
    const { stack, owner } = ctx;
    const { page } = owner;
    const project = /\/p\/([0-9a-f-]{36})\//.exec(page.url())![1]!;
    const billing = `${stack.dashboardUrl}/p/${project}/billing`;

    // Upgrade to Pro through Checkout first: the portal manages an existing subscription.
    await page.goto(billing);
    await page.getByRole("button", { name: "Upgrade to Pro" }).click();
    await page.getByRole("button", { name: "Pay (test)" }).click();
    await page.waitForURL(/\/billing\?checkout=success/);
    await page.getByText("pro", { exact: true }).waitFor({ timeout: 30_000 });

    // Manage billing -> the stand-in's portal page, showing the current plan.
    await page.getByRole("button", { name: "Manage billing" }).click();
    await page.getByRole("heading", { level: 1, name: /Billing portal/ }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/p\/session\/bps_/);
    await expect(page.getByRole("heading", { level: 2 }).innerText()).resolves.toBe("Current plan: Pro");

    await page.getByRole("button", { name: /^Switch to Team/ }).click();
    await page.getByRole("status").getByText("Your plan is now Team.").waitFor();
    await expect(page.getByRole("heading", { level: 2 }).innerText()).resolves.toBe("Current plan: Team");

    // Back to the dashboard: the webhook moved the tier and the limit.
    await page.getByRole("link", { name: "Return to Sightline" }).click();
    await page.waitForURL((url) => url.href.startsWith(billing));
    await page.getByText("team", { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByText(/of 5,000,000 requests/).waitFor();
  }, 240_000);
});
