/**
 * Sessions: the conversation a call belongs to. A session id travels as `metadata.session_id`
 * (direct mode, `trace`) or as the `X-Sightline-Session-Id` header (proxy mode; the proxy
 * stores it as `metadata.session_id` and never forwards it upstream). See docs/sessions.md.
 */

/** Header naming the session of one call, per client (`sessionId` option) or per call (request options `headers`). */
export const SESSION_HEADER = "X-Sightline-Session-Id";

/** Longest session id kept, in characters (longer ids are cut; the API indexes the text as given). */
export const MAX_SESSION_ID_CHARS = 256;

/** A usable session id: a non-empty trimmed string cut at `MAX_SESSION_ID_CHARS`; otherwise `undefined`. */
export function cleanSessionId(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim().slice(0, MAX_SESSION_ID_CHARS);
  return trimmed || undefined;
}

/**
 * Reads and removes the per-call session header from a provider call's request options
 * (`args[1].headers`, a plain object), so the provider never receives it. Returns the
 * arguments to call the provider with (a copy when the header was present, `args` itself
 * otherwise) and the session id found. Never throws.
 */
export function takeSessionHeader(args: unknown[]): { args: unknown[]; sessionId: string | undefined } {
  try {
    const options = args[1];
    if (options === null || typeof options !== "object" || Array.isArray(options)) return { args, sessionId: undefined };
    const headers = (options as { headers?: unknown }).headers;
    if (headers === null || typeof headers !== "object" || Array.isArray(headers)) return { args, sessionId: undefined };
    const name = Object.keys(headers).find((key) => key.toLowerCase() === SESSION_HEADER.toLowerCase());
    if (name === undefined) return { args, sessionId: undefined };
    const { [name]: value, ...rest } = headers as Record<string, unknown>;
    const copy = [...args];
    copy[1] = { ...(options as object), headers: rest };
    return { args: copy, sessionId: cleanSessionId(value) };
  } catch {
    return { args, sessionId: undefined };
  }
}
