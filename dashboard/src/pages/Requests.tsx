/**
 * Requests (issue 15): the project's logged calls, newest first. Filter state lives in the URL
 * (shareable); keyset pages (`cursor`); the total loads separately and never blocks the rows;
 * a column picker; a safety cell with the worst label and six scorer chips ("pending" while
 * scoring runs); live polling (Off / 10 s / 30 s / 1 min, paused while the tab is hidden by
 * TanStack Query) that asks only for rows newer than the newest shown (`after`) and re-asks
 * only the rows still pending (`ids`); export of the current filter; a detail drawer.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { Button, PageTitle } from "../components/ui";
import { request } from "../lib/api";
import { useCurrentProject } from "../lib/projects";
import { RequestDrawer } from "./RequestDrawer";

/** The six scorers, in the order of the chips. */
export const SCORERS = ["content_safety", "pii_detection", "jailbreak_detection", "data_poisoning", "vector_weakness", "unbounded_consumption"] as const;

export interface Chip {
  scorer_name: string;
  score_value: number | null;
  score_label: "safe" | "unsafe" | "unscored";
  verdict: "false_positive" | "confirmed" | null;
}

export interface Row {
  id: string;
  created_at: string;
  model: string;
  provider: string;
  is_error: boolean;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
  latency_ms: number;
  scoring_state: string;
  scores: Chip[];
}

interface Page {
  items: Row[];
  next_cursor: string | null;
}

/** Filter parameters kept in the URL and passed to the API unchanged. */
const FILTER_KEYS = ["start", "end", "model", "provider", "status", "q", "min_score", "scorer", "reviewed", ...SCORERS.map((s) => `label[${s}]`)];

const COLUMNS = ["time", "model", "provider", "status", "tokens", "cost", "latency", "safety"] as const;
type Column = (typeof COLUMNS)[number];

const PRESETS: Record<string, number> = { "24 h": 86_400_000, "7 days": 7 * 86_400_000, "30 days": 30 * 86_400_000 };

/** The filter part of the URL as a query string (no cursor, no open drawer). */
export function filterQuery(params: URLSearchParams): string {
  const out = new URLSearchParams();
  for (const k of FILTER_KEYS) {
    const v = params.get(k);
    if (v) out.set(k, v);
  }
  return out.toString();
}

const chipTone = (c: Chip | undefined) =>
  !c
    ? "bg-zinc-100 text-zinc-500 dark:bg-zinc-800"
    : c.score_label === "unsafe"
      ? c.verdict === "false_positive"
        ? "bg-amber-100 text-amber-900 line-through"
        : "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200"
      : c.score_label === "safe"
        ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
        : "bg-zinc-200 dark:bg-zinc-700";

/** Worst label and six chips; "pending" while the request has no scores yet. */
export function SafetyCell({ scores }: { scores: Chip[] }) {
  if (scores.length === 0) return <span className="text-xs text-zinc-500">pending</span>;
  const worst = scores.some((s) => s.score_label === "unsafe" && s.verdict !== "false_positive")
    ? "unsafe"
    : scores.some((s) => s.score_label === "safe")
      ? "safe"
      : "unscored";
  return (
    <span className="flex items-center gap-1" title={`safety: ${worst}`}>
      <span className="w-14 text-xs font-medium">{worst}</span>
      {SCORERS.map((name) => {
        const c = scores.find((s) => s.scorer_name === name);
        return (
          <span
            key={name}
            title={`${name}: ${c ? `${c.score_label} (${c.score_value ?? "-"})` : "pending"}`}
            className={`rounded px-1 text-[10px] ${chipTone(c)}`}
          >
            {name.slice(0, 2)}
          </span>
        );
      })}
    </span>
  );
}

export function Requests() {
  const project = useCurrentProject()!;
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const filters = filterQuery(params);
  const cursor = params.get("cursor") ?? "";
  const base = `/api/projects/${project.id}`;
  const [columns, setColumns] = useState<Set<Column>>(() => new Set(JSON.parse(localStorage.getItem("request-columns") ?? "null") ?? COLUMNS));
  const [live, setLive] = useState(10_000);
  const [history, setHistory] = useState<string[]>([]);

  const page = useQuery({
    queryKey: ["requests", project.id, filters, cursor],
    queryFn: () => request<Page>(`${base}/requests?limit=50&${filters}${cursor ? `&cursor=${cursor}` : ""}`),
  });
  const total = useQuery({ queryKey: ["requests-count", project.id, filters], queryFn: () => request<{ total: number }>(`${base}/requests/count?${filters}`) });
  const newest = cursor ? undefined : page.data?.items[0]?.id;
  // Live: only on the first page; rows newer than the newest shown, counted, not fetched one by one.
  const fresh = useQuery({
    queryKey: ["requests-new", project.id, filters, newest],
    queryFn: () => request<{ total: number }>(`${base}/requests/count?${filters}&after=${newest}`),
    enabled: live > 0 && newest !== undefined,
    refetchInterval: live || false,
  });
  const pendingIds = useMemo(() => (page.data?.items ?? []).filter((r) => r.scores.length < SCORERS.length).map((r) => r.id), [page.data]);
  useQuery({
    queryKey: ["requests-pending", project.id, pendingIds.join(",")],
    queryFn: async () => {
      const got = await request<Page>(`${base}/requests?ids=${pendingIds.join(",")}`);
      const byId = new Map(got.items.map((r) => [r.id, r]));
      queryClient.setQueryData<Page>(["requests", project.id, filters, cursor], (old) => old && { ...old, items: old.items.map((r) => byId.get(r.id) ?? r) });
      return got.items.length;
    },
    enabled: live > 0 && pendingIds.length > 0,
    refetchInterval: live || false,
  });

  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete("cursor");
    setHistory([]);
    setParams(next);
  };
  const go = (c: string | null, back = false) => {
    const next = new URLSearchParams(params);
    if (c) next.set("cursor", c);
    else next.delete("cursor");
    setHistory((h) => (back ? h.slice(0, -1) : [...h, cursor]));
    setParams(next);
  };
  const open = (id: string | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set("open", id);
    else next.delete("open");
    setParams(next);
  };
  const toggle = (c: Column) => {
    const next = new Set(columns);
    if (next.has(c)) next.delete(c);
    else next.add(c);
    localStorage.setItem("request-columns", JSON.stringify([...next]));
    setColumns(next);
  };
  const show = (c: Column) => columns.has(c);
  const input = "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";

  return (
    <div className="space-y-4">
      <PageTitle subtitle={total.data ? `${total.data.total.toLocaleString()} matching` : "counting…"}>Requests</PageTitle>
      <form className="flex flex-wrap items-end gap-2" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        {Object.entries(PRESETS).map(([label, ms]) => (
          <Button key={label} type="button" variant="ghost" onClick={() => set("start", new Date(Date.now() - ms).toISOString())}>
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
            onKeyDown={(e) => e.key === "Enter" && set(key, e.currentTarget.value)}
          />
        ))}
        <select aria-label="Status" className={input} value={params.get("status") ?? ""} onChange={(e) => set("status", e.target.value)}>
          <option value="">Any status</option>
          <option value="ok">ok</option>
          <option value="error">error</option>
        </select>
        <select aria-label="Minimum score" className={input} value={params.get("min_score") ?? ""} onChange={(e) => set("min_score", e.target.value)}>
          <option value="">Any score</option>
          {[2, 3, 4, 5].map((n) => (
            <option key={n} value={n}>
              score ≥ {n}
            </option>
          ))}
        </select>
        <select aria-label="Reviewed" className={input} value={params.get("reviewed") ?? ""} onChange={(e) => set("reviewed", e.target.value)}>
          <option value="">Any review</option>
          <option value="false_positive">false positive</option>
          <option value="confirmed">confirmed</option>
        </select>
        {SCORERS.map((s) => (
          <select
            key={s}
            aria-label={`${s} label`}
            className={input}
            value={params.get(`label[${s}]`) ?? ""}
            onChange={(e) => set(`label[${s}]`, e.target.value)}
          >
            <option value="">{s}: any</option>
            <option value="unsafe">unsafe</option>
            <option value="safe">safe</option>
            <option value="unscored">unscored</option>
          </select>
        ))}
      </form>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <label>
          Live{" "}
          <select aria-label="Live polling" className={input} value={live} onChange={(e) => setLive(Number(e.target.value))}>
            <option value={0}>Off</option>
            <option value={10_000}>10 s</option>
            <option value={30_000}>30 s</option>
            <option value={60_000}>1 min</option>
          </select>
        </label>
        {fresh.data && fresh.data.total > 0 && (
          <Button type="button" onClick={() => void queryClient.invalidateQueries({ queryKey: ["requests", project.id] })}>
            {fresh.data.total} new
          </Button>
        )}
        <details>
          <summary className="cursor-pointer">Columns</summary>
          {COLUMNS.map((c) => (
            <label key={c} className="mr-2">
              <input type="checkbox" checked={show(c)} onChange={() => toggle(c)} /> {c}
            </label>
          ))}
        </details>
        <a className="underline" href={`${base}/requests/export?format=csv&${filters}`}>
          Export CSV
        </a>
        <a className="underline" href={`${base}/requests/export?format=jsonl&${filters}`}>
          Export JSONL
        </a>
      </div>
      {page.isError && <p role="alert">{String(page.error.message)}</p>}
      <table className="w-full text-left text-sm">
        <thead>
          <tr>
            {COLUMNS.filter(show).map((c) => (
              <th key={c} className="py-1 pr-3 font-medium">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {(page.data?.items ?? []).map((r) => (
            <tr
              key={r.id}
              className="cursor-pointer border-t border-zinc-200 hover:bg-zinc-50 dark:border-zinc-800 dark:hover:bg-zinc-900"
              onClick={() => open(r.id)}
            >
              {show("time") && <td className="py-1 pr-3">{new Date(r.created_at).toLocaleString()}</td>}
              {show("model") && <td className="pr-3">{r.model}</td>}
              {show("provider") && <td className="pr-3">{r.provider}</td>}
              {show("status") && <td className="pr-3">{r.is_error ? "error" : "ok"}</td>}
              {show("tokens") && (
                <td className="pr-3">
                  {r.prompt_tokens} / {r.completion_tokens}
                </td>
              )}
              {show("cost") && <td className="pr-3">${r.cost_usd.toFixed(6)}</td>}
              {show("latency") && <td className="pr-3">{r.latency_ms} ms</td>}
              {show("safety") && (
                <td>
                  <SafetyCell scores={r.scores} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="flex gap-2">
        <Button type="button" variant="ghost" disabled={!cursor} onClick={() => go(history[history.length - 1] || null, true)}>
          Newer
        </Button>
        <Button type="button" variant="ghost" disabled={!page.data?.next_cursor} onClick={() => go(page.data!.next_cursor)}>
          Older
        </Button>
      </div>
      {params.get("open") && <RequestDrawer projectId={project.id} id={params.get("open")!} filters={filters} onNavigate={open} />}
    </div>
  );
}
