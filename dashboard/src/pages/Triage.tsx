/**
 * Safety triage (issue 15), per scorer: the label counts and mean score of the last 30 days,
 * the daily unsafe-rate trend, and the newest unsafe calls with their review state; opening a
 * call shows the drawer, where a member marks a false positive or confirms it.
 */
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { PageTitle } from "../components/ui";
import { request } from "../lib/api";
import { useCurrentProject } from "../lib/projects";
import { type Point, Spark } from "./Overview";
import { RequestDrawer } from "./RequestDrawer";
import { type Row, SafetyCell, SCORERS } from "./Requests";

interface Summary {
  scorers: { scorer_name: string; total: number; safe: number; unsafe: number; unscored: number; mean_score: number | null }[];
}

export function Triage() {
  const project = useCurrentProject()!;
  const [params, setParams] = useSearchParams();
  const scorer = params.get("scorer") ?? SCORERS[0];
  const base = `/api/projects/${project.id}`;
  const end = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
  const range = `start=${new Date(end - 30 * 86_400_000).toISOString()}&end=${new Date(end).toISOString()}`;
  const summary = useQuery({ queryKey: ["score-summary", project.id, end], queryFn: () => request<Summary>(`${base}/safety-scores/summary?${range}`) });
  const trend = useQuery({
    queryKey: ["timeseries", project.id, "triage", end],
    queryFn: () => request<{ points: Point[] }>(`${base}/stats/timeseries?bucket=day&${range}`),
  });
  const filter = `label[${scorer}]=unsafe`;
  const unsafe = useQuery({
    queryKey: ["requests", project.id, filter, ""],
    queryFn: () => request<{ items: Row[] }>(`${base}/requests?limit=20&${encodeURI(filter)}`),
  });
  const s = summary.data?.scorers.find((x) => x.scorer_name === scorer);
  const open = (id: string | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set("open", id);
    else next.delete("open");
    setParams(next);
  };
  return (
    <div className="space-y-4">
      <PageTitle subtitle="last 30 days">Safety triage</PageTitle>
      <select
        aria-label="Scorer"
        className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        value={scorer}
        onChange={(e) => setParams({ scorer: e.target.value })}
      >
        {SCORERS.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      {s && (
        <p className="text-sm">
          {s.total} scores: {s.unsafe} unsafe, {s.safe} safe, {s.unscored} unscored; mean {s.mean_score?.toFixed(2) ?? "-"} of 5
        </p>
      )}
      <Spark
        title={`${scorer} unsafe rate per day`}
        values={(trend.data?.points ?? []).map((p) => p.scorers.find((x) => x.scorer_name === scorer)?.unsafe_rate ?? null)}
        format={(v) => `${(v * 100).toFixed(1)}%`}
      />
      <h2 className="font-medium">Newest unsafe calls</h2>
      <ul className="space-y-1 text-sm">
        {(unsafe.data?.items ?? []).map((r) => (
          <li key={r.id}>
            <button type="button" className="flex w-full items-center gap-3 text-left hover:underline" onClick={() => open(r.id)}>
              <span>{new Date(r.created_at).toLocaleString()}</span>
              <span>{r.model}</span>
              <SafetyCell scores={r.scores} />
            </button>
          </li>
        ))}
      </ul>
      {params.get("open") && <RequestDrawer projectId={project.id} id={params.get("open")!} filters={filter} onNavigate={open} />}
    </div>
  );
}
