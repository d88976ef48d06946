/**
 * Sends the application's request to the upstream. Redirects are returned to the client as
 * they are (not followed). A timeout covers the wait for response headers only: a stream may
 * then last as long as the upstream keeps it open.
 */
import type { UpstreamFailure } from "./log-record";

/** Default wait for the upstream's response headers: 600 s (the OpenAI SDK's own default timeout). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 600_000;

/** An upstream response, or why there is none. */
export type UpstreamResult = { response: Response; headersAt: number } | { failure: UpstreamFailure };

/** Fetches `url`; never throws. `cancel` aborts the call (e.g. when the key check refuses the key). */
export async function fetchUpstream(
  url: URL,
  init: { method: string; headers: Headers; body: ArrayBuffer | ReadableStream<Uint8Array> | null },
  timeoutMs: number,
  cancel?: AbortSignal,
): Promise<UpstreamResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  cancel?.addEventListener("abort", () => controller.abort(), { once: true });
  try {
    const response = await fetch(url, { ...init, redirect: "manual", signal: controller.signal });
    return { response, headersAt: Date.now() };
  } catch (err) {
    if (cancel?.aborted) return { failure: { type: "upstream_unreachable", message: "cancelled: the Sightline key was refused" } };
    if (controller.signal.aborted) return { failure: { type: "upstream_timeout", message: `${url.origin} sent no response headers within ${timeoutMs} ms` } };
    return { failure: { type: "upstream_unreachable", message: `${url.origin} could not be reached: ${String(err)}` } };
  } finally {
    clearTimeout(timer);
  }
}
