/**
 * The Webhooks page in a real Chromium, as an owner uses it: create an alert endpoint (its
 * signing secret shown once), send a test event to a Node HTTP server on 127.0.0.1 and verify its
 * signature with `standardwebhooks`, see the deliveries (a dead-letter record included), have a
 * private address refused, delete. Its own stack on ports 8757/8758 (the API with `npm run dev`'s
 * WEBHOOK_ALLOW_LOOPBACK), so it runs beside dashboard.test.ts.
 */
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { type Received, startWebhookReceiver } from "../../../test/setup/webhook-receiver";
import { seriousViolations } from "./browser";
import { db, openProjectPage, useOwnerStack } from "./owner-stack";

let receiver = "";
const token = crypto.randomUUID();

describe("Webhooks page in Chromium", () => {
  const ctx = useOwnerStack("Olga", { ports: { api: 8757, dashboard: 8758 }, apiVars: { WEBHOOK_ALLOW_LOOPBACK: "true" } });

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });

  it("Should create a webhook and show its signing secret once, then send a signed test event and list its delivery", async () => {
    const { page } = ctx.owner;
    await openProjectPage(page, "Webhooks");
    const url = `${receiver}/ok/${token}`;
    await page.getByLabel("Endpoint URL").fill(url);
    await page.getByLabel("Alert from score").selectOption("5");
    await page.getByLabel("jailbreak_detection").check();
    await page.getByRole("button", { name: "Create webhook" }).click();

    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    const secret = /whsec_[A-Za-z0-9+/]{32}/.exec((await dialog.textContent()) ?? "")?.[0];
    expect(secret).toBeDefined();
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "detached" });
    // Listed with its settings, and the secret is not shown again.
    const row = page.getByRole("row", { name: new RegExp(url) });
    await row.waitFor();
    expect(await row.textContent()).toContain("jailbreak_detection");
    expect(await page.locator("body").textContent()).not.toContain(secret!);

    await page.getByRole("button", { name: `Send test to ${url}` }).click();
    await page.getByText(`Test event delivered to ${url} (HTTP 204).`).waitFor();
    const [got] = (await (await fetch(`${receiver}/__received/${token}`)).json()) as Received[];
    expect(new Webhook(secret!).verify(got!.body, got!.headers)).toMatchObject({ type: "webhook.test" });
    const deliveries = page.getByRole("table").filter({ hasText: "webhook.test" });
    await deliveries.getByText("delivered").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // README screenshot of the page as a person sees it.
    await page.screenshot({ path: join(import.meta.dirname, "../../../docs/screenshots/webhooks.png"), fullPage: true });
  });

  it("Should show a dead-letter record among the recent deliveries", async () => {
    const { page } = ctx.owner;
    const [endpoint] = await db<{ id: string; project_id: string }>("SELECT id, project_id FROM alert_endpoints WHERE url = $1", [`${receiver}/ok/${token}`]);
    await db(
      "INSERT INTO alert_deliveries (id, endpoint_id, project_id, event_type, state, attempts, last_status, last_error) VALUES (gen_random_uuid(), $1, $2, 'score.unsafe', 'dead', 11, 503, 'HTTP 503')",
      [endpoint!.id, endpoint!.project_id],
    );
    await page.getByRole("button", { name: `Deliveries of ${receiver}/ok/${token}` }).click();
    await page.getByText("HTTP 503 (dead letter)").waitFor({ timeout: 15_000 });
  });

  it("Should show the API's refusal of a private address", async () => {
    const { page } = ctx.owner;
    await page.getByLabel("Endpoint URL").fill("http://10.0.0.1/hook");
    await page.getByRole("button", { name: "Create webhook" }).click();
    await page.getByText("url: must not point to a private address").waitFor();
  });

  it("Should delete a webhook after confirmation", async () => {
    const { page } = ctx.owner;
    const url = `${receiver}/ok/${token}`;
    await page.getByRole("button", { name: `Delete ${url}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete webhook" }).click();
    await page.getByText("No webhooks yet.").waitFor();
    expect(await db("SELECT 1 FROM alert_endpoints WHERE url = $1", [url])).toHaveLength(0);
  });
});
