/**
 * A request's time read from its id (src/db/request-time.ts): the window a UUIDv7 or Sightline's
 * OTLP UUIDv8 points to, none for other ids, and ingest's ids made at the call's time; the
 * `created_at` condition of statements naming requests, and PostgreSQL's timestamp text read back.
 */
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { ID_TIME_SLACK_MS, idTimeWindow, requestIdAt, requestsTimeCondition, storedTime } from "../../src/db/request-time";
import { spanRecordId } from "../../src/otlp/record-id";

describe("request time from its id", () => {
  const at = new Date(Date.UTC(2026, 10, 27, 17, 5, 3, 217));

  it("Should make a UUIDv7 at the call's time and find the window around it", () => {
    const id = requestIdAt(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(requestIdAt(at)).not.toBe(id);
    expect(idTimeWindow(id)).toEqual({ from: new Date(at.getTime() - ID_TIME_SLACK_MS), to: new Date(at.getTime() + ID_TIME_SLACK_MS) });
  });

  it("Should read the span's start from an OTLP id, and no time from a UUIDv4", async () => {
    const id = await spanRecordId("p", "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", at.getTime());
    expect(idTimeWindow(id)?.from).toEqual(new Date(at.getTime() - ID_TIME_SLACK_MS));
    expect(idTimeWindow("9b2f6c1e-8a4d-4f3b-9c2e-1d5a7b8c9e0f")).toBeNull();
    expect(idTimeWindow("not-a-uuid")).toBeNull();
  });

  it("Should make a current UUIDv7 when the producer gave no time", () => {
    const window = idTimeWindow(requestIdAt());
    expect(window).not.toBeNull();
    expect(Math.abs(window!.from.getTime() + ID_TIME_SLACK_MS - Date.now())).toBeLessThan(60_000);
  });
});

describe("the created_at condition of statements naming requests", () => {
  const dialect = new PgDialect();
  const render = (refs: Parameters<typeof requestsTimeCondition>[1]) => {
    const cond = requestsTimeCondition(sql.raw("created_at"), refs);
    return cond && dialect.sqlToQuery(cond);
  };
  const at = (ms: number) => new Date(Date.UTC(2026, 10, 27) + ms);

  it("Should compare with each known created_at, and merge the windows of ids that overlap", () => {
    const stored = "2026-11-27 17:05:03.217123+00";
    const q = render([
      { id: requestIdAt(at(0)), created_at: stored },
      { id: requestIdAt(at(0)) },
      { id: requestIdAt(at(3_600_000)) },
      { id: requestIdAt(at(10 * ID_TIME_SLACK_MS)) },
    ])!;
    // Two windows (the first two ids' overlap), then the exact times.
    expect(q.sql).toBe(
      "((created_at >= $1::timestamptz and created_at < $2::timestamptz) OR (created_at >= $3::timestamptz and created_at < $4::timestamptz) OR created_at IN ($5::timestamptz))",
    );
    expect(q.params).toEqual([
      at(-ID_TIME_SLACK_MS).toISOString(),
      at(3_600_000 + ID_TIME_SLACK_MS).toISOString(),
      at(9 * ID_TIME_SLACK_MS).toISOString(),
      at(11 * ID_TIME_SLACK_MS).toISOString(),
      stored,
    ]);
  });

  it("Should give no bound when an id carries no time and its created_at is unknown", () => {
    expect(render([{ id: requestIdAt(at(0)) }, { id: "9b2f6c1e-8a4d-4f3b-9c2e-1d5a7b8c9e0f" }])).toBeUndefined();
    expect(render([{ id: "9b2f6c1e-8a4d-4f3b-9c2e-1d5a7b8c9e0f", created_at: "2026-11-27T17:05:03.217Z" }])?.params).toEqual(["2026-11-27T17:05:03.217Z"]);
  });

  it("Should read PostgreSQL's timestamp text to the millisecond, and nothing from other text", () => {
    expect(storedTime("2026-11-27 17:05:03.217123+00")?.toISOString()).toBe("2026-11-27T17:05:03.217Z");
    expect(storedTime("2026-11-27 18:05:03+01")?.toISOString()).toBe("2026-11-27T17:05:03.000Z");
    expect(storedTime("2026-11-27T17:05:03.217Z")?.toISOString()).toBe("2026-11-27T17:05:03.217Z");
    expect(storedTime("yesterday")).toBeUndefined();
  });
});
