/**
 * The retention grace decision (src/billing/grace.ts): a drop of tier keeps the highest tier's
 * retention for GRACE_DAYS, a second drop extends it, a return to that tier ends it.
 */
import { describe, expect, it } from "vitest";
import { activeGrace, GRACE_DAYS, graceAfter, type GraceColumns } from "../../src/billing/grace";
import type { Tier } from "../../src/enums";

const DAY = 86_400_000;
const t0 = new Date("2026-11-01T00:00:00Z");
const plus = (d: Date, days: number) => new Date(d.getTime() + days * DAY);
const row = (tier: Tier, grace: Partial<GraceColumns> = {}) => ({ tier, retention_tier: null, retention_grace_until: null, ...grace });

describe("graceAfter", () => {
  it("Should start a grace of GRACE_DAYS under the tier held when the tier drops", () => {
    expect(GRACE_DAYS).toBe(30);
    expect(graceAfter(row("pro"), "free", t0)).toEqual({ retention_tier: "pro", retention_grace_until: plus(t0, 30) });
    expect(graceAfter(row("team"), "pro", t0)).toEqual({ retention_tier: "team", retention_grace_until: plus(t0, 30) });
    expect(graceAfter(row("enterprise"), "free", t0)).toEqual({ retention_tier: "enterprise", retention_grace_until: plus(t0, 30) });
  });

  it("Should change nothing without a drop, and end the grace on a return to its tier or above", () => {
    expect(graceAfter(row("pro"), "pro", t0)).toEqual({});
    expect(graceAfter(row("free"), "team", t0)).toEqual({});
    const lapsed = row("free", { retention_tier: "pro", retention_grace_until: plus(t0, 30) });
    expect(graceAfter(lapsed, "pro", plus(t0, 3))).toEqual({ retention_tier: null, retention_grace_until: null });
    expect(graceAfter(lapsed, "team", plus(t0, 3))).toEqual({ retention_tier: null, retention_grace_until: null });
  });

  it("Should keep the higher tier through a second drop and extend the grace from it; a rise below it keeps the grace", () => {
    const downgraded = row("pro", { retention_tier: "team", retention_grace_until: plus(t0, 30) });
    expect(graceAfter(downgraded, "free", plus(t0, 10))).toEqual({ retention_tier: "team", retention_grace_until: plus(t0, 40) });
    const lapsed = row("free", { retention_tier: "team", retention_grace_until: plus(t0, 30) });
    expect(graceAfter(lapsed, "pro", plus(t0, 10))).toEqual({});
  });

  it("Should ignore a grace that has ended: a new drop starts from the tier held", () => {
    const ended = row("pro", { retention_tier: "team", retention_grace_until: plus(t0, 30) });
    expect(graceAfter(ended, "free", plus(t0, 31))).toEqual({ retention_tier: "pro", retention_grace_until: plus(t0, 61) });
    expect(activeGrace(ended, plus(t0, 29))).toEqual({ tier: "team", until: plus(t0, 30) });
    expect(activeGrace(ended, plus(t0, 30))).toBeNull();
  });
});
