/**
 * The detail drawer of one request: its safety first (a card per scorer: state, value,
 * rationale, review), then the conversation as chat (long messages clipped with "Show all") or
 * the raw JSON, and the metadata. Previous/next keep the list's filters (the API's
 * `neighbours`). Keyboard: Escape closes, j moves to the next (older) request, k to the
 * previous (newer). An id that does not exist, or is not an id at all, shows "not found".
 */
import { useEffect, useRef, useState } from "react";
import { roleAtLeast } from "../../../../server/contract";
import { Button, when } from "../../../components/ui";
import { isNotFound } from "../../../lib/api";
import { callCost } from "../../../lib/money";
import { useCurrentProject } from "../../projects/hooks";
import { conversation } from "../conversation";
import { isUuid } from "../filters";
import { useRequestDetail, useReview } from "../hooks";
import type { Detail } from "../types";
import { chipOfScore, worstState } from "../scorers";
import { ClippedText } from "./ClippedText";
import { RevealAudit } from "./RevealAudit";
import { ScoreCard } from "./ScoreCard";
import { ScoreChip } from "./ScoreChips";

/** True when a key press belongs to a field or an open confirmation, not to the drawer. */
function typing(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return true;
  if (document.querySelector('[role="alertdialog"]')) return true;
  return !!t && (t.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(t.tagName));
}

/** The drawer over the page; `onNavigate(null)` closes it, `onNavigate(id)` opens another request. */
export function RequestDrawer({ id, filters, onNavigate }: { id: string; filters: string; onNavigate: (id: string | null) => void }) {
  const project = useCurrentProject()!;
  const [raw, setRaw] = useState(false);
  // Personal data is masked by the server unless an admin asks to reveal it (recorded there).
  const [reveal, setReveal] = useState(false);
  const detail = useRequestDetail(project.id, id, filters, reveal);
  const review = useReview(project.id);
  const panel = useRef<HTMLElement>(null);
  const d = detail.data;
  // Asked with neighbours=true, so present; absent only on an answer without them.
  const newer = d?.neighbours?.newer_id ?? null;
  const older = d?.neighbours?.older_id ?? null;
  const notFound = !isUuid(id) || isNotFound(detail.error);

  useEffect(() => {
    panel.current?.focus();
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typing(e)) return;
      if (e.key === "Escape") onNavigate(null);
      else if (e.key === "j" && older) onNavigate(older);
      else if (e.key === "k" && newer) onNavigate(newer);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [newer, older, onNavigate]);

  const member = roleAtLeast(project.role, "member");
  return (
    <aside
      ref={panel}
      tabIndex={-1}
      role="dialog"
      aria-labelledby="request-detail-title"
      className="fixed inset-y-0 right-0 z-10 w-full max-w-2xl overflow-y-auto border-l border-zinc-200 bg-white p-4 shadow-xl outline-none dark:border-zinc-800 dark:bg-zinc-950"
    >
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 id="request-detail-title" className="text-lg font-semibold">
          Request detail
        </h2>
        <Button variant="secondary" onClick={() => onNavigate(null)} aria-keyshortcuts="Escape">
          Close
        </Button>
      </div>
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <Button variant="ghost" disabled={!newer} onClick={() => onNavigate(newer)} aria-keyshortcuts="k">
          ← Previous
        </Button>
        <Button variant="ghost" disabled={!older} onClick={() => onNavigate(older)} aria-keyshortcuts="j">
          Next →
        </Button>
        {d && (
          <Button variant="ghost" onClick={() => setRaw(!raw)}>
            {raw ? "Chat" : "Raw JSON"}
          </Button>
        )}
        {d && roleAtLeast(project.role, "admin") && (
          <Button variant="ghost" onClick={() => setReveal(!reveal)}>
            {reveal ? "Mask PII" : "Reveal PII (recorded)"}
          </Button>
        )}
      </div>
      {notFound ? (
        <div role="alert" className="space-y-2">
          <h3 className="text-lg font-semibold">Request not found</h3>
          <p className="text-sm">No request of this project has the id “{id}”. It may belong to another project, or the link is incomplete.</p>
        </div>
      ) : detail.isError ? (
        <p role="alert">{detail.error.message}</p>
      ) : !d ? (
        <p>Loading…</p>
      ) : (
        <div className="space-y-5 text-sm">
          <p className="text-zinc-700 dark:text-zinc-300">
            {d.model} · {d.provider} · {d.is_error ? "error" : "ok"} · {d.prompt_tokens}/{d.completion_tokens} tokens · <CostText d={d} /> · {d.latency_ms} ms ·{" "}
            {when(d.created_at)}
          </p>
          <section aria-labelledby="scores-title" className="space-y-2">
            <h3 id="scores-title" className="flex items-center gap-2 font-semibold">
              Safety <ScoreChip state={worstState(d.safety_scores.map(chipOfScore))} />
            </h3>
            {d.safety_scores.length === 0 ? (
              <p>Scoring is pending; the scores appear here when the scorer has written them.</p>
            ) : (
              <ul className="grid gap-2 sm:grid-cols-2">
                {[...d.safety_scores]
                  .sort((a, b) => rank(a.score_label) - rank(b.score_label))
                  .map((s) => (
                    <ScoreCard
                      key={s.id}
                      score={s}
                      history={d.score_history}
                      busy={review.isPending}
                      onReview={member ? (verdict) => review.mutate({ scoreId: s.id, verdict }) : undefined}
                    />
                  ))}
              </ul>
            )}
            {review.isError && <p role="alert">{review.error.message}</p>}
          </section>
          <section aria-labelledby="conversation-title" className="space-y-2">
            <h3 id="conversation-title" className="font-semibold">
              {raw ? "Raw JSON" : "Conversation"}
            </h3>
            {raw ? (
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
              <pre tabIndex={0} className="overflow-x-auto whitespace-pre-wrap break-all rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-900">
                <ClippedText
                  text={JSON.stringify({ request_body: d.request_body, response_body: d.response_body, metadata: d.metadata }, null, 2)}
                  limit={20_000}
                />
              </pre>
            ) : (
              <ol className="space-y-2">
                {conversation(d.request_body, d.response_body).map((m, i) => (
                  <li
                    // biome-ignore lint/suspicious/noArrayIndexKey: a conversation is a fixed list in its own order, never reordered
                    key={i}
                    className={`rounded p-2 ${m.role === "assistant" ? "bg-indigo-50 dark:bg-indigo-950" : m.role === "system" ? "bg-zinc-100 dark:bg-zinc-900" : "bg-emerald-50 dark:bg-emerald-950"}`}
                  >
                    <span className="block text-xs font-medium uppercase">{m.role}</span>
                    <ClippedText text={m.content} className="whitespace-pre-wrap break-words" />
                  </li>
                ))}
              </ol>
            )}
          </section>
          <RevealAudit reveals={d.reveals} />
        </div>
      )}
    </aside>
  );
}

/** Unsafe cards first, then safe, then unscored. */
const rank = (label: string) => ({ unsafe: 0, safe: 1, unscored: 2 })[label] ?? 3;

/**
 * The call's cost: "cost unknown" when neither reported nor priced; else the amount, who gave it
 * (the producer, or the price table and its version) and the prompt-cache tokens it was priced with.
 */
function CostText({ d }: { d: Detail }) {
  if (d.cost_usd === null) return <span>cost unknown</span>;
  const cache = [d.cache_read_tokens ? `${d.cache_read_tokens} cached` : "", d.cache_write_tokens ? `${d.cache_write_tokens} written to cache` : ""].filter(
    Boolean,
  );
  const source = d.cost_source === "genai-prices" ? `priced from ${d.price_version ?? "genai-prices"}` : d.cost_source === "reported" ? "reported" : "";
  const note = [source, ...cache].filter(Boolean).join(", ");
  return (
    <span>
      {callCost(d.cost_usd)}
      {note && ` (${note})`}
    </span>
  );
}
