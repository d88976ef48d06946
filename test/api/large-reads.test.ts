/**
 * The Workers socket's read loop (src/db/driver/large-reads.ts: BYOB reads of up to 64 KiB, handed to
 * pg without a copy) delivers every byte in order: results far larger than one read, messages
 * split across reads at every offset, and many small messages in one read.
 */
import { describe, expect, it } from "vitest";
import { sql } from "./helpers";

describe("workersSocket reads", () => {
  it("Should deliver a value spanning many reads intact", async () => {
    // 3 MB of text whose every 7-byte block differs: a lost, repeated or reordered read shows.
    const [row] = await sql<{ v: string; md5: string }>(
      "SELECT v, md5(v) AS md5 FROM (SELECT string_agg(lpad(i::text, 7, '0'), '' ORDER BY i) AS v FROM generate_series(1, 428572) AS i) t",
    );
    expect(row!.v).toHaveLength(428_572 * 7);
    expect(row!.v.slice(0, 14)).toBe("00000010000002");
    expect(row!.v.slice(-7)).toBe("0428572");
    const digest = await crypto.subtle.digest("MD5", new TextEncoder().encode(row!.v));
    expect([...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")).toBe(row!.md5);
  });

  it("Should deliver many rows of odd sizes, split across reads at any offset", async () => {
    const rows = await sql<{ i: number; v: string }>("SELECT i, repeat(chr(65 + i % 26), i % 997) AS v FROM generate_series(1, 20000) AS i ORDER BY i");
    expect(rows).toHaveLength(20_000);
    for (const { i, v } of rows) expect(v).toBe(String.fromCharCode(65 + (i % 26)).repeat(i % 997));
  });
});
