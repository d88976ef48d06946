/** The filter bar of the Requests page; every control writes its URL parameter (shareable). */
import { REVIEW_VERDICTS, type ReviewVerdict, SCORE_LABELS, SCORER_NAMES } from "../../../../server/contract";
import { Button, CONTROL, cn, Select, type SelectOption } from "../../../components/ui";
import { SCORER_INFO } from "../scorers";

const PRESETS: Record<string, number> = { "24 h": 86_400_000, "7 days": 7 * 86_400_000, "30 days": 30 * 86_400_000 };
const input = cn(CONTROL, "px-2 py-1");
/** Choices of a scorer's label filter (`name`: the scorer's short name): any, or one of the labels. */
const LABEL_OPTIONS = (name: string) => [{ value: "", label: `${name}: any` }, ...SCORE_LABELS.map((l) => ({ value: l, label: `${name}: ${l}` }))];

/** Choices of the minimum-score filter. */
const MIN_SCORE_OPTIONS = [{ value: "", label: "Any score" }, ...[2, 3, 4, 5].map((n) => ({ value: String(n), label: `score ≥ ${n}` }))];

/** A verdict as the filter says it. */
const VERDICT_WORDS: Record<ReviewVerdict, string> = { false_positive: "false positive", confirmed: "confirmed" };

/** Choices of the review filter. */
const REVIEW_OPTIONS = [{ value: "", label: "Any review" }, ...REVIEW_VERDICTS.map((v) => ({ value: v, label: VERDICT_WORDS[v] }))];

/** The filters' state: the URL parameters and how to change them. */
interface Bound {
  params: URLSearchParams;
  set: (changes: Record<string, string>) => void;
}

/** A compact select bound to URL parameter `param` (its label for assistive technology only). */
function ParamSelect({ params, set, param, label, options }: Bound & { param: string; label: string; options: readonly (SelectOption | string)[] }) {
  return (
    <Select label={label} hideLabel className="py-1" value={params.get(param) ?? ""} onChange={(e) => set({ [param]: e.target.value })} options={options} />
  );
}

/** Filters of `params`; `set({key: value})` changes them (an empty value removes one). */
export function RequestFilters(bound: Bound) {
  const { params, set } = bound;
  const from = params.get("start");
  const to = params.get("end");
  return (
    <form className="flex flex-wrap items-end gap-2" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
      {Object.entries(PRESETS).map(([label, ms]) => (
        <Button key={label} variant="ghost" onClick={() => set({ start: new Date(Date.now() - ms).toISOString(), end: "" })}>
          {label}
        </Button>
      ))}
      {(
        [
          ["q", "Search prompts and completions", "Search text"],
          ["model", "Model", "Model"],
          ["provider", "Provider", "Provider"],
        ] as const
      ).map(([key, label, placeholder]) => (
        <input
          key={key}
          aria-label={label}
          placeholder={placeholder}
          className={input}
          defaultValue={params.get(key) ?? ""}
          onKeyDown={(e) => e.key === "Enter" && set({ [key]: e.currentTarget.value })}
        />
      ))}
      <ParamSelect {...bound} param="status" label="Status" options={[{ value: "", label: "Any status" }, "ok", "error"]} />
      <ParamSelect {...bound} param="min_score" label="Minimum score" options={MIN_SCORE_OPTIONS} />
      <ParamSelect {...bound} param="reviewed" label="Reviewed" options={REVIEW_OPTIONS} />
      {SCORER_NAMES.map((s) => (
        <ParamSelect key={s} {...bound} param={`label[${s}]`} label={`${s} label`} options={LABEL_OPTIONS(SCORER_INFO[s].short)} />
      ))}
      {(from || to) && (
        <Button variant="ghost" onClick={() => set({ start: "", end: "" })}>
          {from ? new Date(from).toLocaleString() : "…"} – {to ? new Date(to).toLocaleString() : "now"} ✕
        </Button>
      )}
    </form>
  );
}
