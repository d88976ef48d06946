import { describe, expect, it } from "vitest";
import { coalescedWrites, type WriteCallback } from "../../src/db/driver/coalesced-writes";

/** A socket write that records each chunk and completes (or fails) when told. */
function recordingSocket() {
  const writes: { data: Buffer; done: WriteCallback }[] = [];
  const write = (data: Uint8Array | string, cb?: unknown) => {
    writes.push({ data: Buffer.from(data as Uint8Array), done: cb as WriteCallback });
    return true;
  };
  return { writes, write };
}

const tick = () => new Promise<void>((r) => setTimeout(r, 0));

describe("coalescedWrites", () => {
  it("sends the writes of one synchronous run as one chunk, in order", async () => {
    const socket = recordingSocket();
    const write = coalescedWrites(socket.write);
    // pg's extended-protocol query: Parse, Bind, Describe, Execute, Sync written back to back.
    for (const part of ["P", "B", "D", "E", "S"]) write(Buffer.from(part));
    expect(socket.writes).toHaveLength(0);
    await tick();
    expect(socket.writes.map((w) => w.data.toString())).toEqual(["PBDES"]);
  });

  it("keeps later runs separate and in order, strings encoded as given", async () => {
    const socket = recordingSocket();
    const write = coalescedWrites(socket.write);
    write("start");
    await tick();
    write("6869", "hex");
    write(new Uint8Array([0x21]));
    await tick();
    expect(socket.writes.map((w) => w.data.toString())).toEqual(["start", "hi!"]);
  });

  it("runs every callback of a chunk when that chunk is written, with its error", async () => {
    const socket = recordingSocket();
    const write = coalescedWrites(socket.write);
    const seen: (string | undefined)[] = [];
    write("a", (err) => seen.push(err?.message ?? "ok a"));
    write("b", "utf8", (err) => seen.push(err?.message ?? "ok b"));
    await tick();
    expect(seen).toEqual([]); // not before the socket says the chunk is written
    socket.writes[0]!.done(new Error("broken pipe"));
    expect(seen).toEqual(["broken pipe", "broken pipe"]);

    write("c", (err) => seen.push(err?.message ?? "ok c"));
    await tick();
    socket.writes[1]!.done();
    expect(seen.at(-1)).toBe("ok c");
  });
});
