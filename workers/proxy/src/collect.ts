/**
 * Reads the copy of a response body that the proxy logs, chunk by chunk, with bounded memory:
 * - `text/event-stream`: each chunk goes through the SSE parser into the reassembler, so only
 *   the rebuilt text is held (see reassemble.ts), never the raw stream;
 * - JSON: bytes are kept up to `maxJsonBytes` and parsed at the end;
 * - anything else (audio, files): only the byte count is kept.
 */
import { DEFAULT_MAX_CHARS, StreamReassembler } from "./reassemble";
import { SseParser } from "./sse";

/** Raw bytes of a JSON response kept for parsing: 4 MiB. Past that the body is logged as a text prefix. */
export const DEFAULT_MAX_JSON_BYTES = 4 * 1024 * 1024;

/** Characters of an unparseable body kept as `raw_text`: 64 Ki. */
const RAW_TEXT_CHARS = 64 * 1024;

/** What the capture yields once the response has ended. */
export interface Collected {
  /** The response_body to log. */
  body: unknown;
  /** True for an SSE stream. */
  stream: boolean;
  /** True when part of the body was dropped to bound memory. */
  truncated: boolean;
  /** Bytes seen. */
  bytes: number;
}

/** Receives the logged copy of a response body. */
export interface Collector {
  push(chunk: Uint8Array): void;
  finish(): Collected;
}

class SseCollector implements Collector {
  #parser = new SseParser();
  #assembler: StreamReassembler;
  #bytes = 0;
  constructor(maxChars: number) {
    this.#assembler = new StreamReassembler(maxChars);
  }
  push(chunk: Uint8Array): void {
    this.#bytes += chunk.byteLength;
    for (const event of this.#parser.push(chunk)) this.#assembler.push(event);
  }
  finish(): Collected {
    for (const event of this.#parser.end()) this.#assembler.push(event);
    const { body, truncated } = this.#assembler.result();
    return { body, stream: true, truncated, bytes: this.#bytes };
  }
}

class JsonCollector implements Collector {
  #chunks: Uint8Array[] = [];
  #kept = 0;
  #bytes = 0;
  constructor(private readonly maxBytes: number) {}
  push(chunk: Uint8Array): void {
    this.#bytes += chunk.byteLength;
    const room = this.maxBytes - this.#kept;
    if (room <= 0) return;
    const part = chunk.byteLength > room ? chunk.slice(0, room) : chunk;
    this.#chunks.push(part);
    this.#kept += part.byteLength;
  }
  finish(): Collected {
    const bytes = new Uint8Array(this.#kept);
    let at = 0;
    for (const c of this.#chunks) {
      bytes.set(c, at);
      at += c.byteLength;
    }
    this.#chunks = [];
    const text = new TextDecoder().decode(bytes);
    const truncated = this.#bytes > this.#kept;
    if (!truncated && text.trim() !== "") {
      try {
        return { body: JSON.parse(text), stream: false, truncated: false, bytes: this.#bytes };
      } catch {
        // not JSON after all: logged as text below
      }
    }
    const body = text === "" ? null : { raw_text: text.slice(0, RAW_TEXT_CHARS) };
    return { body, stream: false, truncated: truncated || text.length > RAW_TEXT_CHARS, bytes: this.#bytes };
  }
}

class CountingCollector implements Collector {
  #bytes = 0;
  constructor(private readonly contentType: string) {}
  push(chunk: Uint8Array): void {
    this.#bytes += chunk.byteLength;
  }
  finish(): Collected {
    return { body: { content_type: this.contentType, size_bytes: this.#bytes }, stream: false, truncated: false, bytes: this.#bytes };
  }
}

/** Limits of a collector (tests lower them). */
export interface CollectLimits {
  maxJsonBytes?: number;
  maxChars?: number;
}

/** Picks the collector for a response's `Content-Type`. */
export function createCollector(contentType: string | null, limits: CollectLimits = {}): Collector {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "text/event-stream") return new SseCollector(limits.maxChars ?? DEFAULT_MAX_CHARS);
  if (type === "" || type === "application/json" || type.endsWith("+json") || type.startsWith("text/"))
    return new JsonCollector(limits.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES);
  return new CountingCollector(type);
}
