/**
 * Safety triage (issues 15, 25 and 33), per scorer, over the last 30 days: how many unsafe calls
 * wait for review and how many were reviewed (false positive / confirmed), each count from the
 * same filter as its tab's rows (./queue.ts), the daily unsafe rate, the queue itself, filtered by
 * verdict ("to review" by default), with a note on rows whose score changed since their review,
 * and the reviewed calls of the scorer as a JSONL dataset (`npm run eval -- <file>`). A review in the
 * drawer refreshes the counts and the queue, so a reviewed call leaves "to review" at once.
 * Keyboard: j/k move through the queue, Enter opens, and in the drawer Escape closes and j/k
 * move to the next/previous call.
 */
import { useEffect, useRef } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { SCORER_NAMES, type ScorerName } from "../../../../server/contract";
import { SERIES_COLORS } from "../../../components/charts/chart-types";
import { TimeChart } from "../../../components/charts/TimeChart";
import { PageTitle, Select, when } from "../../../components/ui";
import { bucketEnd, regroup, unsafeRate, useTimeseries } from "../../overview/hooks";
import { useCurrentProject } from "../../projects/hooks";
import { RequestDrawer } from "../../requests/components/RequestDrawer";
import { SafetyCell } from "../../requests/components/ScoreChips";
import { spanQuery } from "../../requests/filters";
import { useRequestCount, useRequestPage } from "../../requests/hooks";
import { SCORER_INFO } from "../../requests/scorers";
import { reviewedExportQuery, VERDICT_TABS, VERDICTS, triageFilters } from "../queue";
import { api } from "../../../lib/api";
import { withChanges } from "../../../lib/search-params";

/** The Safety triage page. */
export function TriagePage() {
  const project = useCurrentProject()!;
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const scorer = (SCORER_NAMES as readonly string[]).includes(params.get("scorer") ?? "") ? (params.get("scorer") as ScorerName) : SCORER_NAMES[0];
  const verdict = VERDICT_TABS.find((v) => v === params.get("verdict")) ?? "to_review";
  const end = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
  const start = end - 30 * 86_400_000;
  const f = triageFilters(scorer, start, end);
  const counts = {
    to_review: useRequestCount(project.id, f.to_review).data?.total,
    false_positive: useRequestCount(project.id, f.false_positive).data?.total,
    confirmed: useRequestCount(project.id, f.confirmed).data?.total,
    all: useRequestCount(project.id, f.all).data?.total,
  };
  const listFilter = f[verdict];
  const page = useRequestPage(project.id, listFilter, "", 30_000, 100);
  const rows = page.data?.items ?? [];
  const trend = useTimeseries(project.id, start, end);
  const days = regroup(trend.data?.points ?? [], "day");

  const set = (changes: Record<string, string | null>) => {
    const next = withChanges(params, changes);
    setParams(next);
  };
  const open = (id: string | null) => set({ open: id });
  const openId = params.get("open");

  // j/k move the focus through the queue while no drawer is open.
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  useEffect(() => {
    if (openId) return;
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (e.altKey || e.ctrlKey || e.metaKey || ["INPUT", "SELECT", "TEXTAREA"].includes(t.tagName) || (e.key !== "j" && e.key !== "k")) return;
      const list = items.current.filter((b): b is HTMLButtonElement => b !== null);
      const at = list.indexOf(document.activeElement as HTMLButtonElement);
      const next = e.key === "j" ? Math.min(list.length - 1, at + 1) : Math.max(0, at - 1);
      list[next]?.focus();
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [openId]);

  const short = SCORER_INFO[scorer].short;
  return (
    <div className="space-y-4">
      <PageTitle subtitle="Unsafe calls of the last 30 days, per scorer. Keys: j/k move, Enter opens, Escape closes.">Safety triage</PageTitle>
      <div className="flex flex-wrap items-end gap-3">
        <Select
          label="Scorer"
          value={scorer}
          onChange={(e) => set({ scorer: e.target.value, open: null })}
          options={SCORER_NAMES.map((n) => ({ value: n, label: `${SCORER_INFO[n].short} (${n})` }))}
        />
        <Select
          label="Verdict"
          value={verdict}
          onChange={(e) => set({ verdict: e.target.value === "to_review" ? null : e.target.value, open: null })}
          options={VERDICT_TABS.map((v) => ({ value: v, label: VERDICTS[v] }))}
        />
        <a
          className="inline-flex items-center rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800"
          href={api.projects[":projectId"].reviews.export.$path({ param: { projectId: project.id }, query: reviewedExportQuery(scorer, start, end) })}
          download
        >
          Export reviewed calls (JSONL)
        </a>
      </div>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" aria-label={`${short} review counts`}>
        {(
          [
            ["To review", counts.to_review],
            ["False positives", counts.false_positive],
            ["Confirmed", counts.confirmed],
            ["Unsafe in total", counts.all],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
            <dt className="text-sm text-zinc-700 dark:text-zinc-300">{label}</dt>
            <dd className="text-2xl font-semibold">{value?.toLocaleString() ?? "…"}</dd>
          </div>
        ))}
      </dl>
      <TimeChart
        title={`${short}: unsafe rate per day`}
        total={(() => {
          const r = unsafeRate(days, scorer);
          return r === null ? "no scores yet" : `${(r * 100).toFixed(1)}% over 30 days`;
        })()}
        data={days.map((d) => ({ t: d.t, rate: unsafeRate([d], scorer) }))}
        series={[{ key: "rate", name: "Unsafe rate", color: SERIES_COLORS[1]! }]}
        format={(v) => `${(v * 100).toFixed(1)}%`}
        bucketMs={86_400_000}
        onBucket={(t) => void navigate(`/p/${project.id}/requests?${spanQuery(t, bucketEnd(t, "day"))}&label%5B${scorer}%5D=unsafe`)}
      />
      <h2 className="text-lg font-semibold">
        {VERDICTS[verdict]}: {short}
      </h2>
      {page.isError && <p role="alert">{page.error.message}</p>}
      {page.isSuccess && rows.length === 0 && (
        <p>{verdict === "to_review" ? "Nothing to review. Every unsafe call of this scorer has a verdict." : "No calls."}</p>
      )}
      <ul className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800" aria-label="Queue">
        {rows.map((r, i) => (
          <li key={r.id}>
            <button
              type="button"
              ref={(el) => {
                items.current[i] = el;
              }}
              className="grid w-full grid-cols-1 items-center gap-x-4 gap-y-1 px-1 py-2 text-left md:grid-cols-[11rem_9rem_minmax(0,1fr)_auto] hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-zinc-900"
              onClick={() => open(r.id)}
            >
              <span className="whitespace-nowrap">{when(r.created_at)}</span>
              <span className="font-medium">{r.model}</span>
              <span className="truncate text-zinc-700 dark:text-zinc-300" title={r.preview ?? undefined}>
                {r.preview ?? <span className="italic">no user text</span>}
              </span>
              <span className="flex flex-col gap-1">
                <SafetyCell scores={r.scores} />
                {r.scores.some((c) => c.scorer_name === scorer && c.review_changed) && (
                  <span className="text-xs font-medium text-amber-800 dark:text-amber-200">{short}: score changed since review</span>
                )}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {openId && <RequestDrawer id={openId} filters={listFilter} onNavigate={open} />}
    </div>
  );
}
