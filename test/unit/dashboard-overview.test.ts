/**
 * The Overview's regrouping of the API's hourly UTC buckets into the browser's local days
 * (dashboard/src/features/overview/hooks.ts), in a zone with a daylight-saving change:
 * Europe/Berlin left summer time on 2026-10-25 at 03:00 local, so that local day has 25 hours.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bucketEnd, type Point, regroup, unsafeRate } from "../../dashboard/src/features/overview/hooks";

const HOUR = 3_600_000;
let zone: string | undefined;

/** Hourly points of [start, start + hours), each with one request and one unsafe content score of two. */
function hours(start: string, count: number): Point[] {
  return Array.from({ length: count }, (_, i) => ({
    bucket: new Date(Date.parse(start) + i * HOUR).toISOString(),
    requests: 1,
    errors: i % 2,
    error_rate: i % 2,
    p50_latency_ms: 10 + i,
    p95_latency_ms: 100 + i,
    cost_usd: 0.5,
    unpriced: i % 3 === 0 ? 1 : 0,
    scorers: [{ scorer_name: "content_safety", scores: 2, unsafe: 1, unsafe_rate: 0.5 }],
  }));
}

describe("Overview buckets in the browser's time zone", () => {
  beforeAll(() => {
    zone = process.env.TZ;
    process.env.TZ = "Europe/Berlin";
  });
  afterAll(() => {
    process.env.TZ = zone;
  });

  it("Should group hours into local days, 25 hours on the day summer time ends", () => {
    // 2026-10-24 00:00 Berlin (CEST, UTC+2) is 2026-10-23 22:00 UTC; three local days follow.
    const days = regroup(hours("2026-10-23T22:00:00Z", 24 + 25 + 24), "day");
    expect(days.map((d) => d.requests)).toEqual([24, 25, 24]);
    expect(days.map((d) => new Date(d.t).toISOString())).toEqual(["2026-10-23T22:00:00.000Z", "2026-10-24T22:00:00.000Z", "2026-10-25T23:00:00.000Z"]);
    expect(days[1]!.cost_usd).toBeCloseTo(12.5);
    expect(days[1]!.scores.content_safety).toEqual({ scores: 50, unsafe: 25 });
    // Latency of a day: p50 the median hour's, p95 the slowest hour's.
    expect(days[0]!.p50_latency_ms).toBe(10 + 11);
    expect(days[0]!.p95_latency_ms).toBe(100 + 23);
    expect(unsafeRate(days, "content_safety")).toBe(0.5);
    expect(unsafeRate(days, "pii_detection")).toBeNull();
  });

  it("Should end a day bucket at the next local midnight, and an hour bucket an hour later", () => {
    const day = Date.parse("2026-10-24T22:00:00Z");
    expect(bucketEnd(day, "day") - day).toBe(25 * HOUR);
    expect(bucketEnd(Date.parse("2026-10-23T22:00:00Z"), "day") - Date.parse("2026-10-23T22:00:00Z")).toBe(24 * HOUR);
    expect(bucketEnd(day, "hour") - day).toBe(HOUR);
  });

  it("Should keep hourly buckets as they are", () => {
    const points = hours("2026-11-25T10:00:00Z", 3);
    expect(regroup(points, "hour").map((b) => [new Date(b.t).toISOString(), b.requests, b.p50_latency_ms])).toEqual(
      points.map((p) => [p.bucket, 1, p.p50_latency_ms]),
    );
  });
});
