/**
 * A request's time read from its id (src/db/request-time.ts): the window a UUIDv7 or Sightline's
 * OTLP UUIDv8 points to, none for other ids, and ingest's ids made at the call's time.
 */
import { describe, expect, it } from "vitest";
import { ID_TIME_SLACK_MS, idTimeWindow, requestIdAt } from "../../src/db/request-time";
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
