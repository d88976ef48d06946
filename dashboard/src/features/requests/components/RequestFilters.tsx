/** The filter bar of the Requests page; every control writes its URL parameter (shareable). */
import { SCORER_NAMES } from "../../../../server/contract";
import { Button, Select } from "../../../components/ui";
import { SCORER_INFO } from "../scorers";

const PRESETS: Record<string, number> = { "24 h": 86_400_000, "7 days": 7 * 86_400_000, "30 days": 30 * 86_400_000 };
const input = "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";
const LABEL_OPTIONS = (name: string) => [
  { value: "", label: `${name}: any` },
  { value: "unsafe", label: `${name}: unsafe` },
  { value: "safe", label: `${name}: safe` },
  { value: "unscored", label: `${name}: unscored` },
];

/** Filters of `params`; `set({key: value})` changes them (an empty value removes one). */
export function RequestFilters({ params, set }: { params: URLSearchParams; set: (changes: Record<string, string>) => void }) {
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
      <Select
        label="Status"
        hideLabel
        className="py-1"
        value={params.get("status") ?? ""}
        onChange={(e) => set({ status: e.target.value })}
        options={[{ value: "", label: "Any status" }, "ok", "error"]}
      />
      <Select
        label="Minimum score"
        hideLabel
        className="py-1"
        value={params.get("min_score") ?? ""}
        onChange={(e) => set({ min_score: e.target.value })}
        options={[{ value: "", label: "Any score" }, ...[2, 3, 4, 5].map((n) => ({ value: String(n), label: `score ≥ ${n}` }))]}
      />
      <Select
        label="Reviewed"
        hideLabel
        className="py-1"
        value={params.get("reviewed") ?? ""}
        onChange={(e) => set({ reviewed: e.target.value })}
        options={[
          { value: "", label: "Any review" },
          { value: "false_positive", label: "false positive" },
          { value: "confirmed", label: "confirmed" },
        ]}
      />
      {SCORER_NAMES.map((s) => (
        <Select
          key={s}
          label={`${s} label`}
          hideLabel
          className="py-1"
          value={params.get(`label[${s}]`) ?? ""}
          onChange={(e) => set({ [`label[${s}]`]: e.target.value })}
          options={LABEL_OPTIONS(SCORER_INFO[s].short)}
        />
      ))}
      {(from || to) && (
        <Button variant="ghost" onClick={() => set({ start: "", end: "" })}>
          {from ? new Date(from).toLocaleString() : "…"} – {to ? new Date(to).toLocaleString() : "now"} ✕
        </Button>
      )}
    </form>
  );
}
