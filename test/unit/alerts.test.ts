/**
 * Pure parts of alert webhooks: the SSRF guard's table, the settings' defaults, the event
 * bodies (the retry schedule is tested with its queue, test/unit/queues.test.ts), and that a
 * signature made by src/alerts/send.ts verifies with the `standardwebhooks` package (and fails when the body is changed).
 */
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { ALERT_DEFAULTS, alertConfig } from "../../src/alerts/config";
import { eventBody, SCORE_UNSAFE } from "../../src/alerts/events";
import { newSigningSecret, signatureHeaders } from "../../src/alerts/send";
import { refuseWebhookUrl } from "../../src/alerts/url-guard";

const deployed = { allowLoopback: false };
const dev = { allowLoopback: true };

describe("refuseWebhookUrl", () => {
  it.each(["https://hooks.example.com/x", "https://8.8.8.8/x", "https://[2606:4700:4700::1111]/x", "https://hooks.slack.com/services/T/B/x"])(
    "Should accept the public URL %s",
    (url) => expect(refuseWebhookUrl(url, deployed)).toBeNull(),
  );

  it.each([
    ["http://hooks.example.com/x", "must use https"],
    ["https://user:pw@hooks.example.com/x", "must not carry credentials"],
    ["https://127.0.0.1/x", "loopback"],
    ["https://2130706433/x", "loopback"],
    ["https://[::1]/x", "loopback"],
    ["https://10.0.0.1/x", "private"],
    ["https://172.20.1.1/x", "private"],
    ["https://192.168.0.1/x", "private"],
    ["https://169.254.169.254/x", "linkLocal"],
    ["https://[fe80::1]/x", "linkLocal"],
    ["https://[fc00::1]/x", "uniqueLocal"],
    ["https://[::ffff:192.168.0.1]/x", "private"],
    ["https://localhost/x", "localhost"],
    ["https://localhost./x", "localhost"],
    ["https://api.localhost/x", "localhost"],
    ["https://nas.local/x", "local-network"],
    ["https://metadata.google.internal/x", "local-network"],
    ["https://intranet/x", "fully qualified"],
    ["not a url", "absolute URL"],
  ])("Should refuse %s when deployed (%s)", (url, reason) => {
    expect(refuseWebhookUrl(url, deployed)).toContain(reason);
  });

  it("Should allow http and loopback under npm run dev, and nothing else private", () => {
    expect(refuseWebhookUrl("http://127.0.0.1:9000/hook", dev)).toBeNull();
    expect(refuseWebhookUrl("http://localhost:9000/hook", dev)).toBeNull();
    expect(refuseWebhookUrl("http://[::1]:9000/hook", dev)).toBeNull();
    expect(refuseWebhookUrl("http://10.0.0.1/hook", dev)).toContain("private");
    expect(refuseWebhookUrl("http://169.254.169.254/", dev)).toContain("linkLocal");
  });
});

describe("alert settings", () => {
  it("Should read the settings from vars, keeping defaults for blank values and naming a malformed one", () => {
    expect(alertConfig({})).toEqual(ALERT_DEFAULTS);
    expect(() => alertConfig({ WEBHOOK_RETRY_BASE_SECONDS: "x" })).toThrow('WEBHOOK_RETRY_BASE_SECONDS: expected a positive integer, got "x"');
    expect(
      alertConfig({ WEBHOOK_MAX_ATTEMPTS: "3", WEBHOOK_RETRY_BASE_SECONDS: "", WEBHOOK_ALLOW_LOOPBACK: "true", DASHBOARD_URL: "https://app.example.com/" }),
    ).toMatchObject({
      maxAttempts: 3,
      retryBaseSeconds: 10,
      allowLoopback: true,
      dashboardUrl: "https://app.example.com",
    });
  });
});

describe("events and signatures", () => {
  const event = {
    type: SCORE_UNSAFE,
    data: {
      request_id: "r",
      project_id: "p",
      scorer_name: "pii_detection",
      score_value: 5,
      score_label: "unsafe",
      rationale: "card number <Luhn-valid> & email",
      model: "gpt-4o",
      created_at: "2026-11-25T00:00:00.000Z",
      dashboard_url: null,
    },
  } as const;

  it("Should verify with standardwebhooks' Webhook.verify, and fail on a changed body", () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const body = eventBody(event, "standard", new Date());
    const headers = signatureHeaders(secret, "msg-1", new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: "score.unsafe", data: { scorer_name: "pii_detection" } });
    expect(() => new Webhook(secret).verify(body.replace("pii", "pjj"), headers)).toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
  });

  it("Should shape Slack messages with escaped mrkdwn", () => {
    const slack = JSON.parse(eventBody(event, "slack", new Date())) as { text: string; blocks: { text?: { text: string } }[] };
    expect(slack.text).toBe("Sightline: pii_detection scored 5/5 (unsafe) on a gpt-4o call");
    expect(slack.blocks[1]!.text!.text).toBe("card number &lt;Luhn-valid&gt; &amp; email");
  });
});
