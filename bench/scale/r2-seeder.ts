/**
 * Writes the seeded body objects into the local R2 bucket `sightline-bodies` that the API
 * worker reads when it runs in workerd from the same persistence folder (scripts/lib/workerd.ts
 * `persistTo`): a Miniflare of its own with a small worker that `put`s every object a POST
 * carries, so objects are written through R2's own local implementation (Miniflare keeps
 * metadata in SQLite and blobs as files) rather than by imitating its files. About 500 puts/s
 * on this machine, so the seed groups calls into objects as a busy deployment would (module doc
 * of ./run.ts).
 */
import { createRequire } from "node:module";

type MiniflareModule = typeof import("miniflare");
const wranglerRequire = createRequire(createRequire(import.meta.url).resolve("wrangler/package.json"));
const { Miniflare, convertV4MiniflareOptions } = wranglerRequire("miniflare") as MiniflareModule;

/** Frames: u32 key length, key (UTF-8), u32 body length, body; repeated. */
const PUT_WORKER = `export default {
  async fetch(request, env) {
    const buf = new Uint8Array(await request.arrayBuffer());
    const view = new DataView(buf.buffer);
    const decoder = new TextDecoder();
    const puts = [];
    for (let at = 0; at < buf.length; ) {
      const keyLength = view.getUint32(at); at += 4;
      const key = decoder.decode(buf.subarray(at, at + keyLength)); at += keyLength;
      const length = view.getUint32(at); at += 4;
      puts.push(env.BODIES.put(key, buf.slice(at, at + length), { httpMetadata: { contentType: "application/octet-stream" } }));
      at += length;
    }
    await Promise.all(puts);
    return new Response(String(puts.length));
  },
};`;

/** The seeding side of the local bucket: `put` many objects, then `close` before the API worker opens the folder. */
export interface R2Seeder {
  put(objects: readonly { key: string; bytes: Buffer }[]): Promise<void>;
  close(): Promise<void>;
}

/** Opens bucket `sightline-bodies` under `persistRoot` (Miniflare's `resourcePersistencePath`). */
export async function openR2Seeder(persistRoot: string): Promise<R2Seeder> {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: PUT_WORKER,
      r2Buckets: { BODIES: "sightline-bodies" },
      resourcePersistencePath: persistRoot,
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  await mf.ready;
  /** POSTs one frame list; throws on a status other than 200. */
  const send = async (frames: Buffer[]) => {
    const res = await mf.dispatchFetch("http://seed/", { method: "POST", body: Buffer.concat(frames) });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`R2 seeding failed: ${res.status} ${text.slice(0, 300)}`);
  };
  return {
    async put(objects) {
      let frames: Buffer[] = [];
      let size = 0;
      for (const o of objects) {
        const key = Buffer.from(o.key);
        const head = Buffer.alloc(4);
        head.writeUInt32BE(key.length);
        const len = Buffer.alloc(4);
        len.writeUInt32BE(o.bytes.length);
        frames.push(head, key, len, o.bytes);
        size += 8 + key.length + o.bytes.length;
        if (size > 8 << 20) {
          await send(frames);
          frames = [];
          size = 0;
        }
      }
      if (frames.length) await send(frames);
    },
    close: () => mf.dispose(),
  };
}
