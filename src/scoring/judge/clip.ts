/**
 * Bounds on the text sent to a guard model, so each judge call's cost and latency stay within
 * the judge's timeout (workers/scorer/src/judge/ask.ts).
 */

/**
 * Characters kept per turn (about 2,000 tokens at ~4 characters a token). The models accept far
 * more (Workers AI model pages: 131,072-token context windows for Llama Guard 3 8B and Llama 3.1
 * 8B); this bound keeps each call's cost and latency small. Longer turns keep their first and
 * last halves around `CLIP_MARK`.
 */
export const MAX_TURN_CHARS = 8_000;

/** Marker put where the middle of an over-long turn was cut. */
export const CLIP_MARK = "\n[...]\n";

/** `text` cut to `max` characters (plus `CLIP_MARK`): its first and last halves. */
export function clip(text: string, max = MAX_TURN_CHARS): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}${CLIP_MARK}${text.slice(-half)}`;
}
