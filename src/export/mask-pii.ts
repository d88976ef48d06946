/**
 * Masks personal data in exported text: every span the PII scorer's detectors find
 * (`findPii`, src/scoring/pii-detection.ts) is replaced by its kind in brackets, e.g.
 * `[EMAIL]`, `[CREDIT_CARD]`, so exports and masked views never carry the values themselves.
 */
import { findPii } from "../scoring/pii-detection";

/** `text` with each detected PII span replaced by `[KIND]` (detector id upper-cased). */
export function maskPiiText(text: string): string {
  const hits = findPii(text);
  if (hits.length === 0) return text;
  // Spans never overlap (findPii skips claimed spans); replace from the end so offsets hold.
  const spans = [...hits].sort((a, b) => b.start - a.start);
  let out = text;
  for (const h of spans) out = `${out.slice(0, h.start)}[${h.id.toUpperCase()}]${out.slice(h.end)}`;
  return out;
}

/**
 * A copy of a JSON value with every string masked by `maskPiiText` (object keys are kept:
 * they are the API's shape, not user data). Non-string leaves are returned as they are.
 */
export function maskPiiJson(value: unknown): unknown {
  if (typeof value === "string") return maskPiiText(value);
  if (Array.isArray(value)) return value.map(maskPiiJson);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, maskPiiJson(v)]));
  }
  return value;
}
