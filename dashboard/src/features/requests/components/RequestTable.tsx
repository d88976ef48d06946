/** The rows of the Requests page, with a column picker remembered in localStorage. */
import { useState } from "react";
import { when } from "../../../components/ui";
import type { Row } from "../types";
import { SafetyCell } from "./ScoreChips";
import { callCost } from "../../../lib/money";

/**
 * The start of a call's last user turn (the API's `preview`: at most 120 characters, personal
 * data masked: src/db/schema/requests.ts PREVIEW_CHARS), on one line cut to the cell's width; the whole preview in its title.
 */
function PreviewCell({ preview }: { preview: string | null }) {
  return (
    <td className="max-w-xs truncate pr-3 text-zinc-700 dark:text-zinc-300" title={preview ?? undefined}>
      {preview ?? <span className="italic">no user text</span>}
    </td>
  );
}

/** The table's columns, in order. */
export const COLUMNS = ["time", "preview", "model", "provider", "status", "tokens", "cost", "latency", "safety"] as const;
/** One of `COLUMNS`. */
export type Column = (typeof COLUMNS)[number];

/** The shown columns and a toggle, kept in localStorage ("request-columns"). */
export function useColumns() {
  const [columns, setColumns] = useState<Set<Column>>(() => new Set(JSON.parse(localStorage.getItem("request-columns") ?? "null") ?? COLUMNS));
  const toggle = (c: Column) => {
    const next = new Set(columns);
    if (next.has(c)) next.delete(c);
    else next.add(c);
    localStorage.setItem("request-columns", JSON.stringify([...next]));
    setColumns(next);
  };
  return { columns, toggle };
}

/** `rows` as a table; a click (or Enter) on a row opens it; `fresh` rows are highlighted as just arrived. */
export function RequestTable({ rows, columns, open, fresh }: { rows: Row[]; columns: Set<Column>; open: (id: string) => void; fresh: Set<string> }) {
  const show = (c: Column) => columns.has(c);
  return (
    <table className="w-full text-left text-sm">
      <thead>
        <tr>
          {COLUMNS.filter(show).map((c) => (
            <th key={c} scope="col" className="py-1 pr-3 font-medium">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr
            key={r.id}
            tabIndex={0}
            className={`cursor-pointer border-t border-zinc-200 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-zinc-800 dark:hover:bg-zinc-900 ${fresh.has(r.id) ? "bg-indigo-50 dark:bg-indigo-950/50" : ""}`}
            onClick={() => open(r.id)}
            onKeyDown={(e) => e.key === "Enter" && open(r.id)}
          >
            {show("time") && <td className="py-1.5 pr-3 whitespace-nowrap">{when(r.created_at)}</td>}
            {show("preview") && <PreviewCell preview={r.preview} />}
            {show("model") && <td className="pr-3 whitespace-nowrap">{r.model}</td>}
            {show("provider") && <td className="pr-3">{r.provider}</td>}
            {show("status") && <td className="pr-3">{r.is_error ? "error" : "ok"}</td>}
            {show("tokens") && (
              <td className="pr-3 whitespace-nowrap">
                {r.prompt_tokens} / {r.completion_tokens}
              </td>
            )}
            {show("cost") && <td className="pr-3 whitespace-nowrap">{callCost(r.cost_usd)}</td>}
            {show("latency") && <td className="pr-3 whitespace-nowrap">{r.latency_ms} ms</td>}
            {show("safety") && (
              <td className="py-1">
                <SafetyCell scores={r.scores} />
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
