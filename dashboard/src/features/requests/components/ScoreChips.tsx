/**
 * A row's safety at a glance: its worst state, then one chip per scorer with the scorer's short
 * name, coloured and marked by its state; and the legend that explains them.
 */
import { cn } from "../../../components/ui";
import { type ChipState, chipState, SCORER_INFO, SCORERS, STATE_STYLE, worstState } from "../scorers";
import type { Chip } from "../types";

/** One chip: symbol and short name; its full meaning in the tooltip and for screen readers. */
export function ScoreChip({ label, state, detail }: { label?: string; state: ChipState; detail?: string }) {
  const style = STATE_STYLE[state];
  const text = label ? `${label}: ${style.words}${detail ? ` (${detail})` : ""}` : style.words;
  return (
    <span title={text} className={cn("inline-flex items-center gap-0.5 whitespace-nowrap rounded border px-1.5 py-0.5 text-xs font-medium", style.chip)}>
      <span aria-hidden="true">{style.symbol}</span>
      <span aria-hidden="true">{label ?? style.words}</span>
      <span className="sr-only">{text}</span>
    </span>
  );
}

/** The worst state in words, then the six chips (dashed "pending" ones until the scorer has written). */
export function SafetyCell({ scores }: { scores: Chip[] }) {
  const worst = worstState(scores);
  return (
    <span className="flex flex-wrap items-center gap-1">
      <span className={cn("w-16 text-xs font-semibold", worst === "unsafe" && "text-red-800 dark:text-red-300")}>{worst}</span>
      {SCORERS.map((name) => {
        const c = scores.find((s) => s.scorer_name === name);
        return <ScoreChip key={name} label={SCORER_INFO[name].short} state={chipState(c)} detail={c?.score_value ? `${c.score_value} of 5` : undefined} />;
      })}
    </span>
  );
}

/** What the chips mean: each state (always shown), and what each scorer looks for (unfolds). */
export function ScoreLegend() {
  return (
    <div className="flex flex-wrap items-start gap-x-4 gap-y-2 text-sm">
      <ul className="flex flex-wrap items-center gap-2" aria-label="Legend of the score chips">
        {(Object.keys(STATE_STYLE) as ChipState[]).map((s) => (
          <li key={s}>
            <ScoreChip state={s} />
          </li>
        ))}
      </ul>
      <details>
        <summary className="cursor-pointer">What each scorer looks for</summary>
        <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
          {SCORERS.map((name) => (
            <div key={name} className="contents">
              <dt className="font-medium">{SCORER_INFO[name].short}</dt>
              <dd className="text-zinc-700 dark:text-zinc-300">
                <code className="text-xs">{name}</code>: {SCORER_INFO[name].about}
              </dd>
            </div>
          ))}
        </dl>
      </details>
    </div>
  );
}
