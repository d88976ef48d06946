/**
 * Auxiliary worker (vitest.config.ts) consuming a real (Miniflare) queue: `log-records` in the
 * `proxy` project, `log-records-dlq` in the `workers` project. It records each message, resolving records
 * held in R2 (`LOG_PAYLOADS`, the same bucket the proxy writes), and lists them per key hash:
 * `GET /__records?key_hash=<sha256 hex>` -> [{message, via, record, bytes, batched, message_id}].
 * Plain JavaScript because Miniflare loads auxiliary workers without bundling.
 */
const records = new Map();

export default {
  async queue(batch, env) {
    for (const message of batch.messages) {
      const text = typeof message.body === "string" ? message.body : JSON.stringify(message.body);
      const parsed = JSON.parse(text);
      // A v2 message carries several inline records: each is listed as its own v1 envelope,
      // with `batched` the number of records its message held.
      const envelopes = parsed.v === 2 ? parsed.records.map((r) => ({ v: 1, ...r })) : [parsed];
      for (const envelope of envelopes) {
        let record = envelope.record;
        let bytes = new TextEncoder().encode(envelopes.length > 1 ? JSON.stringify(envelope) : text).byteLength;
        if (envelope.payload) {
          const object = await env.LOG_PAYLOADS.get(envelope.payload);
          const json = object ? await object.text() : "null";
          record = JSON.parse(json);
          bytes = new TextEncoder().encode(json).byteLength;
        }
        const list = records.get(envelope.key_hash) ?? [];
        list.push({
          message: envelope,
          via: envelope.payload ? "r2" : "inline",
          record,
          bytes,
          contentType: typeof message.body,
          batched: envelopes.length,
          message_id: message.id,
        });
        records.set(envelope.key_hash, list);
      }
      message.ack();
    }
  },
  async fetch(request) {
    const url = new URL(request.url);
    return Response.json(records.get(url.searchParams.get("key_hash") ?? "") ?? []);
  },
};
