/**
 * Windows, then the maximum (issue 31, point 4): a learned model reads a long text as a whole,
 * so one harmful or planted span inside a long benign prompt or document is averaged away by
 * the L2 normalisation of the text's n-grams. A scorer that opts in (`LearnedSpec.windows`)
 * also has each window of each long segment scored, in the view with that segment replaced by
 * the window, and keeps the highest probability. Windows cover the part of a segment the model
 * reads (`clip`: its first 2,000 and last 1,000 characters), so their cost stays O(1) in the
 * text's size (at most 5 windows a segment); the middle of a longer text is left to the rules,
 * which match spans anywhere. Texts no longer than one window are read as before, so the fit, the model files
 * and every short call are unchanged: windows are an inference-time change, and the trainer
 * scores the same windows (scripts/train/export.ts) so the operating points account for them.
 */
import { type LinearModel, partsProbability, viewParts } from "./linear";
import { clip, type Segment } from "./features";
import type { ModelView } from "./views";

/**
 * Window size and step, in UTF-16 code units. A segment longer than `chars` is read as
 * windows of `chars` starting every `stride` (stride < chars: windows overlap, so a span of up
 * to chars - stride characters lies whole inside one window). Each scorer sets its own in its
 * spec, from the lengths of the texts its model was fitted on (docs/scoring.md "Windows").
 */
export interface WindowSpec {
  chars: number;
  stride: number;
}

/** How far a window edge moves to land on whitespace instead of inside a word. */
const SNAP = 40;

/**
 * The windows of the featurised part of `text` (`clip`; `WindowSpec`), each edge moved onto
 * the nearest whitespace within `SNAP` characters; the last window ends at the part's end.
 * Empty when the part fits in one window (it is read whole).
 */
export function textWindows(full: string, { chars, stride }: WindowSpec): string[] {
  const text = clip(full);
  if (text.length <= chars) return [];
  const out: string[] = [];
  for (let start = 0; ; start += stride) {
    let a = start;
    if (a > 0) {
      const ws = text.slice(a, a + SNAP).search(/\s/);
      if (ws >= 0) a += ws + 1;
    }
    let b = Math.min(start + chars, text.length);
    if (b < text.length) {
      const ws = text.slice(b - SNAP, b).search(/\s\S*$/);
      if (ws >= 0) b = b - SNAP + ws;
    }
    out.push(text.slice(a, b));
    if (start + chars >= text.length) return out;
  }
}

/**
 * The window views of `view`: for each segment longer than one window and each of its
 * windows, the view with that segment replaced by the window (the other segments and the
 * indicators kept). Empty when no segment is longer than one window.
 */
export function windowViews(view: ModelView, spec: WindowSpec): ModelView[] {
  const out: ModelView[] = [];
  view.segments.forEach((seg, i) => {
    for (const text of textWindows(seg.text, spec)) {
      const segments: Segment[] = view.segments.slice();
      segments[i] = { ns: seg.ns, text };
      out.push({ segments, indicators: view.indicators });
    }
  });
  return out;
}

/**
 * Calibrated probability of `unsafe` for `view`: the whole view's, or with `spec` the highest
 * of the whole view's and its window views' (`windowViews`). Returns the segments that gave it,
 * for the explanation (`topGrams`). A window view differs from the view in one segment, so only
 * that segment's part of the linear score is recomputed (`viewParts`): the same value as
 * scoring the window view's features (`probability`) up to the order of floating-point additions.
 */
export function windowedProbability(model: LinearModel, view: ModelView, spec?: WindowSpec): { p: number; segments: readonly Segment[] } {
  const whole = viewParts(model, view.segments, view.indicators);
  let sum = whole.indicators;
  for (const part of whole.parts) sum += part;
  let best = { p: partsProbability(model, sum), segments: view.segments };
  if (!spec) return best;
  view.segments.forEach((seg, i) => {
    for (const text of textWindows(seg.text, spec)) {
      const window = { ns: seg.ns, text };
      const part = viewParts(model, [window], []).parts[0]! * whole.scales[i]!;
      const p = partsProbability(model, sum - whole.parts[i]! + part);
      if (p > best.p) {
        const segments = view.segments.slice();
        segments[i] = window;
        best = { p, segments };
      }
    }
  });
  return best;
}
