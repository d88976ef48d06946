/** The Billing page's retention grace line (dashboard/src/features/billing/grace.ts). */
import { describe, expect, it } from "vitest";
import { graceNotice } from "../../dashboard/src/features/billing/grace";

describe("graceNotice", () => {
  it("Should say under which tier's retention data is kept and until when, or nothing without a grace", () => {
    const lapsed = { tier: "free", retention_days: 30, retention_grace: { tier: "pro", retention_days: 365, until: "2026-12-27T12:00:00.000Z" } } as const;
    expect(graceNotice(lapsed, "en-US")).toBe(
      "Data is kept under the Pro retention (365 days) until December 27, 2026; after that, the Free plan's 30 days apply.",
    );
    const enterprise = { ...lapsed, retention_grace: { tier: "enterprise", retention_days: null, until: "2026-12-27T12:00:00.000Z" } } as const;
    expect(graceNotice(enterprise, "en-US")).toContain("under the Enterprise retention (kept until deleted) until December 27, 2026");
    expect(graceNotice({ tier: "pro", retention_days: 365, retention_grace: null })).toBeNull();
  });
});
