/**
 * Requests (issues 15 and 25): the project's logged calls, newest first. Filters live in the
 * URL (shareable); keyset pages (`cursor`); the total loads separately and never blocks the
 * rows. Live (Off / 5 s / 10 s / 30 s / 1 min, paused while the tab is hidden): on the first page new
 * calls appear at the top by themselves and pending scores fill in; on an older page an
 * "N new" button counts the calls logged since and leads back to the top. An empty project
 * shows "waiting for your first call" with the snippets, and turns into the table by itself.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { Button, PageTitle, Select } from "../../../components/ui";
import { useCurrentProject } from "../../projects/hooks";
import { filterQuery } from "../filters";
import { exportPath, requestKeys, useRequestCount, useRequestPage } from "../hooks";
import { RequestDrawer } from "./RequestDrawer";
import { RequestFilters } from "./RequestFilters";
import { COLUMNS, RequestTable, useColumns } from "./RequestTable";
import { ScoreLegend } from "./ScoreChips";
import { WaitingForFirstCall } from "./WaitingForFirstCall";
import { withChanges } from "../../../lib/search-params";

const LIVE_OPTIONS = [
  { value: "0", label: "Off" },
  { value: "5000", label: "5 s" },
  { value: "10000", label: "10 s" },
  { value: "30000", label: "30 s" },
  { value: "60000", label: "1 min" },
];

/** Rows per page. */
const PAGE_SIZE = 50;

/** The Requests page. */
export function RequestsPage() {
  const project = useCurrentProject()!;
  const [params, setParams] = useSearchParams();
  const filters = filterQuery(params);
  const cursor = params.get("cursor") ?? "";
  const { columns, toggle } = useColumns();
  const [live, setLive] = useState(5_000);
  const [history, setHistory] = useState<string[]>([]);
  const page = useRequestPage(project.id, filters, cursor, live, PAGE_SIZE);
  const total = useRequestCount(project.id, filters, { refetchInterval: !cursor && live > 0 ? live : false });
  const rows = page.data?.items ?? [];

  // The newest row seen on the first page of this filter: an older page counts what arrived after it.
  const [top, setTop] = useState<{ filters: string; id: string } | undefined>(undefined);
  useEffect(() => {
    if (!cursor && rows[0]) setTop({ filters, id: rows[0].id });
  }, [cursor, rows, filters]);
  const topId = top?.filters === filters ? top.id : undefined;
  const fresh = useRequestCount(project.id, `${filters}${filters ? "&" : ""}after=${topId}`, {
    enabled: !!cursor && live > 0 && topId !== undefined,
    refetchInterval: live || false,
  });

  // Rows that arrived by live refresh are highlighted until the next refresh.
  const seen = useRef<Set<string> | null>(null);
  const [arrived, setArrived] = useState<Set<string>>(new Set());
  useEffect(() => {
    if (!page.data || cursor) return;
    const ids = page.data.items.map((r) => r.id);
    if (seen.current) setArrived(new Set(ids.filter((id) => !seen.current!.has(id))));
    seen.current = new Set([...(seen.current ?? []), ...ids]);
  }, [page.data, cursor]);

  const set = (changes: Record<string, string>) => {
    const next = withChanges(params, changes);
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
  // "N new": the first page is asked again before it shows, so the new calls are on it at once.
  const queryClient = useQueryClient();
  const toTop = async () => {
    await queryClient.refetchQueries({ queryKey: requestKeys.page(project.id, filters, "", PAGE_SIZE), type: "all" });
    const next = new URLSearchParams(params);
    next.delete("cursor");
    setHistory([]);
    setParams(next);
  };
  const open = (id: string | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set("open", id);
    else next.delete("open");
    setParams(next);
  };
  const empty = page.isSuccess && rows.length === 0 && !cursor && filters === "";
  const openId = params.get("open");

  return (
    <div className="space-y-4">
      <PageTitle subtitle={total.data ? `${total.data.total.toLocaleString()} matching` : "counting…"}>Requests</PageTitle>
      {empty ? (
        <WaitingForFirstCall projectId={project.id} />
      ) : (
        <>
          <RequestFilters params={params} set={set} />
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <Select
              label="Live polling"
              hideLabel
              className="py-1"
              value={String(live)}
              onChange={(e) => setLive(Number(e.target.value))}
              options={LIVE_OPTIONS.map((o) => ({ ...o, label: `Live: ${o.label}` }))}
            />
            {cursor && fresh.data && fresh.data.total > 0 && (
              <Button onClick={() => void toTop()} aria-describedby="new-calls-hint">
                {fresh.data.total} new
              </Button>
            )}
            <span id="new-calls-hint" className="sr-only">
              Calls logged since you left the first page; opens the newest.
            </span>
            <details>
              <summary className="cursor-pointer">Columns</summary>
              {COLUMNS.map((c) => (
                <label key={c} className="mr-2">
                  <input type="checkbox" checked={columns.has(c)} onChange={() => toggle(c)} /> {c}
                </label>
              ))}
            </details>
            <a className="underline" href={exportPath(project.id, filters, "csv")}>
              Export CSV
            </a>
            <a className="underline" href={exportPath(project.id, filters, "jsonl")}>
              Export JSONL
            </a>
          </div>
          <ScoreLegend />
          {page.isError && <p role="alert">{page.error.message}</p>}
          {page.isSuccess && rows.length === 0 && <p>No calls match these filters.</p>}
          {rows.length > 0 && <RequestTable rows={rows} columns={columns} open={open} fresh={arrived} />}
          <div className="flex gap-2">
            <Button variant="ghost" disabled={!cursor} onClick={() => go(history[history.length - 1] || null, true)}>
              Newer
            </Button>
            <Button variant="ghost" disabled={!page.data?.next_cursor} onClick={() => go(page.data!.next_cursor)}>
              Older
            </Button>
          </div>
        </>
      )}
      {openId && <RequestDrawer id={openId} filters={filters} onNavigate={open} />}
    </div>
  );
}
