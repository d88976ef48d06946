/**
 * The pieces of `npm run deploy` that need no account: the resource plan read from worker
 * configs (including what other branches add, e.g. a log-records queue and an R2 bucket), the
 * readers of wrangler's output formats, redaction, and the managed/self-hosted switch.
 */
import { describe, expect, it } from "vitest";
import type { Unstable_RawConfig } from "wrangler";
import { deploymentKind, deploymentVars } from "../../scripts/lib/deploy/deployment";
import { planResources } from "../../scripts/lib/deploy/resources";
import { parseBucketNames, parseDeployedUrls, parseTable, redact, registerSecret } from "../../scripts/lib/deploy/wrangler-cli";
import { readWorkerConfig, WORKERS } from "../../scripts/lib/wrangler-config";

describe("planResources", () => {
  it("Should plan the queues, the dead-letter queues, the R2 bucket and Hyperdrive that the repository's configs name", () => {
    expect(
      planResources(
        WORKERS.map((w) => readWorkerConfig(w.config)),
        "sightline",
      ),
    ).toEqual({
      queues: ["alert-deliveries", "log-records", "log-records-dlq", "scoring-jobs", "scoring-jobs-dlq"],
      buckets: ["sightline-bodies", "sightline-log-payloads"],
      hyperdrive: "sightline",
    });
  });

  it("Should pick up whatever a config adds: another queue with its dead-letter queue and an R2 bucket", () => {
    const extra = {
      name: "sightline-extra",
      queues: { consumers: [{ queue: "audit-events", dead_letter_queue: "audit-events-dlq" }], producers: [{ binding: "AUDIT_QUEUE", queue: "audit-events" }] },
      r2_buckets: [{ binding: "ARCHIVE", bucket_name: "sightline-archive" }],
    } as Unstable_RawConfig;
    const plan = planResources([...WORKERS.map((w) => readWorkerConfig(w.config)), extra], "sightline");
    expect(plan.queues).toEqual(["alert-deliveries", "audit-events", "audit-events-dlq", "log-records", "log-records-dlq", "scoring-jobs", "scoring-jobs-dlq"]);
    expect(plan.buckets).toEqual(["sightline-archive", "sightline-bodies", "sightline-log-payloads"]);
  });

  it("Should refuse a config naming a resource kind it cannot create, before any account call", () => {
    expect(() => planResources([{ name: "x", kv_namespaces: [{ binding: "KV", id: "1" }] } as Unstable_RawConfig])).toThrow(/does not create kv_namespaces/);
  });
});

describe("wrangler output readers", () => {
  it("Should read a cli-table3 table as wrangler's logger.table prints it", () => {
    const text = [
      " ⛅️ wrangler 4.164.0",
      "───────────────────",
      "┌──────────┬──────────────────┬─────────────┐",
      "│ id       │ name             │ producers   │",
      "├──────────┼──────────────────┼─────────────┤",
      "│ 3f2a     │ scoring-jobs     │ 1           │",
      "├──────────┼──────────────────┼─────────────┤",
      "│ 9b1c     │ scoring-jobs-dlq │ 0           │",
      "└──────────┴──────────────────┴─────────────┘",
    ].join("\n");
    expect(parseTable(text)).toEqual([
      { id: "3f2a", name: "scoring-jobs", producers: "1" },
      { id: "9b1c", name: "scoring-jobs-dlq", producers: "0" },
    ]);
    expect(parseTable("📋 Listing Hyperdrive configs\n")).toEqual([]);
  });

  it("Should read bucket names and the URLs under `Deployed <name> triggers`", () => {
    expect(
      parseBucketNames(
        "Listing buckets...\nname:           log-payloads\ncreation_date:  2026-11-01T00:00:00.000Z\n\nname:           other\ncreation_date:  x",
      ),
    ).toEqual(["log-payloads", "other"]);
    const deployed =
      "Uploaded sightline-scorer (2.1 sec)\nDeployed sightline-scorer triggers (0.6 sec)\n  https://sightline-scorer.acme.workers.dev\n  schedule: */2 * * * *\n  Consumer for scoring-jobs\nCurrent Version ID: 1";
    expect(parseDeployedUrls(deployed)).toEqual(["https://sightline-scorer.acme.workers.dev"]);
  });

  it("Should redact registered secrets and any URL password", () => {
    registerSecret("s3cr3t-value-123");
    expect(redact("token s3cr3t-value-123 and postgres://u:pw-XYZ@db.example/x")).toBe("token *** and postgres://u:***@db.example/x");
  });
});

describe("managed vs self-hosted", () => {
  it("Should default to self-hosted: /docs on, free tier unlimited, no billing variables", () => {
    expect(deploymentKind({})).toBe("self-hosted");
    expect(deploymentVars("self-hosted", {})).toEqual({ DOCS_ENABLED: "true", TIER_LIMITS: '{"free":null}' });
  });

  it("Should give managed /docs off, the spec's limits and the billing variables, and require what selling needs", () => {
    const env = { STRIPE_PRICE_PRO: "price_p", BILLING_RETURN_ORIGINS: "https://app.example.com" };
    expect(deploymentVars("managed", env)).toEqual({ DOCS_ENABLED: "false", TIER_LIMITS: "", ...env });
    expect(() => deploymentVars("managed", {})).toThrow(/STRIPE_PRICE_PRO, BILLING_RETURN_ORIGINS/);
    expect(() => deploymentKind({ SIGHTLINE_DEPLOYMENT: "cloud" })).toThrow(/managed" or "self-hosted/);
  });

  it("Should let an explicit variable win over the switch", () => {
    expect(deploymentVars("self-hosted", { DOCS_ENABLED: "false", TIER_LIMITS: '{"free":100}' })).toMatchObject({
      DOCS_ENABLED: "false",
      TIER_LIMITS: '{"free":100}',
    });
  });
});
