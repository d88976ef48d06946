/**
 * Incremental Server-Sent Events parser (WHATWG HTML, "Parsing an event stream"): lines end
 * in CRLF, LF or CR; `data:` lines accumulate, `event:` names the event, lines starting with
 * `:` are comments, and a blank line dispatches the event. OpenAI streams one JSON object per
 * event (`data: {...}\n\n`) and ends with `data: [DONE]`. Pure: bytes in, events out.
 */

/** One dispatched event. */
export interface SseEvent {
  /** The `event:` field, or undefined when absent (OpenAI chat streams never set it). */
  event?: string;
  /** The `data:` lines joined with "\n". */
  data: string;
}

/** Feeds bytes as they arrive; returns the events each chunk completes. */
export class SseParser {
  #decoder = new TextDecoder();
  #buffer = "";
  #data: string[] = [];
  #event: string | undefined;
  #sawCr = false;
  #started = false;

  /** Parses one network chunk (any split: mid-line, mid-UTF-8 sequence). */
  push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === "string" ? chunk : this.#decoder.decode(chunk, { stream: true });
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    return this.#consume(text);
  }

  /** Ends the stream: a last event without its blank line is dispatched (lenient, as browsers are not). */
  end(): SseEvent[] {
    const events = this.#consume(this.#decoder.decode() + "\n");
    if (this.#data.length > 0) events.push(this.#dispatch());
    return events;
  }

  /**
   * Splits `text` into lines with native `indexOf` searches (no JS loop over every character:
   * a 56 MB stream is 56 M characters) and handles each line.
   */
  #consume(text: string): SseEvent[] {
    const events: SseEvent[] = [];
    if (text.length === 0) return events;
    let pos = 0;
    // "\r\n" split across chunks: the "\n" after a "\r" ending the previous chunk is not a new line.
    if (this.#sawCr && this.#buffer === "" && text.charCodeAt(0) === 10) pos = 1;
    this.#sawCr = false;
    let cr = text.indexOf("\r", pos);
    for (;;) {
      const lf = text.indexOf("\n", pos);
      if (cr !== -1 && cr < pos) cr = text.indexOf("\r", pos);
      if (lf === -1 && cr === -1) break;
      const atCr = cr !== -1 && (lf === -1 || cr < lf);
      const end = atCr ? cr : lf;
      const line = this.#buffer + text.slice(pos, end);
      this.#buffer = "";
      const crlf = atCr && lf === end + 1;
      this.#sawCr = atCr && !crlf && end === text.length - 1;
      pos = crlf ? end + 2 : end + 1;
      const event = this.#line(line);
      if (event) events.push(event);
    }
    if (pos < text.length) {
      this.#buffer += text.slice(pos);
      this.#sawCr = false;
    }
    return events;
  }

  #line(line: string): SseEvent | undefined {
    if (line === "") {
      if (this.#data.length > 0) return this.#dispatch();
      this.#event = undefined; // an empty event is not dispatched, but it ends the event name
      return undefined;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.#data.push(value);
    else if (field === "event") this.#event = value;
    return undefined;
  }

  #dispatch(): SseEvent {
    const event: SseEvent = { data: this.#data.join("\n") };
    if (this.#event !== undefined) event.event = this.#event;
    this.#data = [];
    this.#event = undefined;
    return event;
  }
}
