/**
 * The tap (workers/proxy/src/tap.ts) on a real upstream body in workerd: bulk reads keep the
 * client's bytes and the collector's copy exact. The loopback stand-in sends ~3 MB/s here, under
 * the production switch to bulk reads (10 MB/s), so these tests lower it.
 */
import { describe, expect, it } from "vitest";
import { createCollector } from "../../workers/proxy/src/collect";
import { type TapOutcome, tapStream } from "../../workers/proxy/src/tap";
import { newRun, testEnv, upstreamSaw } from "./helpers";

/** The stand-in's generated stream of `n` events of `size` UTF-16 units of 1- to 4-byte characters. */
const bigStream = (n: number, size: number, run = newRun()) =>
  fetch(`${testEnv.TEST_UPSTREAM_URL}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-big-stream": `${n}x${size}`, "x-test-big-stream-text": "unicode", "x-test-run": run },
    body: "{}",
  });

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
};

describe("tap", () => {
  it("Should read a fast stream in bulk and hand the client and the collector the same bytes, whole", async () => {
    const res = await bigStream(4000, 60);
    const collector = createCollector(res.headers.get("content-type"));
    const observed: Uint8Array[] = [];
    let outcome: TapOutcome | undefined;
    const client = tapStream(
      res.body!,
      {
        chunk(bytes) {
          observed.push(bytes.slice());
          collector.push(bytes);
        },
        end: (o) => (outcome = o),
      },
      { minRate: 1, windowBytes: 16 * 1024 },
    );
    const received: Uint8Array[] = [];
    for await (const chunk of client as unknown as AsyncIterable<Uint8Array>) received.push(chunk);
    const wire = concat(received);
    expect(wire.byteLength).toBeGreaterThan(1_000_000);
    expect(concat(observed)).toEqual(wire);
    expect(outcome).toBe("complete");
    // After the first 16 KiB (interactive reads, one ~360-byte event each), bulk reads of 16 KiB or more.
    const inBulk = received.filter((c) => c.byteLength >= 16 * 1024).reduce((sum, c) => sum + c.byteLength, 0);
    expect(inBulk / wire.byteLength).toBeGreaterThan(0.9);

    let streamed = "";
    for (const event of new TextDecoder().decode(wire).split("\n\n"))
      if (event.startsWith("data: {"))
        streamed += (JSON.parse(event.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? "";
    const { body, truncated } = collector.finish();
    const rebuilt = body as { event_count: number; choices: { message: { content: string } }[] };
    expect(truncated).toBe(false);
    expect(rebuilt.event_count).toBe(4003);
    expect(rebuilt.choices[0]!.message.content.length).toBe(streamed.length);
    expect(rebuilt.choices[0]!.message.content === streamed).toBe(true);
  });

  it("Should close the upstream when the client cancels during a bulk read", async () => {
    const run = newRun();
    const res = await bigStream(40_000, 60, run); // ~14 MB: still sending when the client stops
    let outcome: TapOutcome | undefined;
    const client = tapStream(res.body!, { chunk() {}, end: (o) => (outcome = o) }, { minRate: 1, windowBytes: 16 * 1024 });
    const reader = client.getReader();
    let bytes = 0;
    while (bytes < 200_000) bytes += (await reader.read()).value!.byteLength;
    await reader.cancel("user pressed stop");
    expect(outcome).toBe("aborted");
    await new Promise((r) => setTimeout(r, 200));
    expect((await upstreamSaw(run))[0]!.closedEarly).toBe(true);
  });
});
