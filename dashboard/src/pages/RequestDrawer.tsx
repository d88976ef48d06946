/**
 * The detail drawer of one request: the conversation as chat (system, user, assistant, tool
 * calls and results), a raw JSON view, tokens, cost, latency, metadata, the six scores with
 * Likert value, label, rationale and review (members mark a false positive or confirm), and
 * previous/next that keep the list's filters (the API's `neighbours`).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../components/ui";
import { can, request } from "../lib/api";
import { useCurrentProject } from "../lib/projects";
import { ScoreHistory, type VersionedScore } from "../features/policy/ScoreHistory";

interface Score {
  id: string;
  scorer_name: string;
  score_value: number | null;
  score_label: string;
  rationale: string;
  scorer_version?: string;
  scored_at?: string;
  review: { verdict: string; reviewer: string; reviewed_at: string } | null;
}

interface Detail {
  id: string;
  model: string;
  provider: string;
  created_at: string;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
  latency_ms: number;
  is_error: boolean;
  metadata: Record<string, unknown>;
  request_body: unknown;
  response_body: unknown;
  safety_scores: Score[];
  /** Scores replaced by re-scoring (docs/rescoring.md). */
  score_history?: VersionedScore[];
  neighbours: { newer_id: string | null; older_id: string | null };
}

interface Message {
  role: string;
  content: string;
}

/** Text of an OpenAI/Anthropic-style content field (string or parts). */
function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? p : ((p as { text?: string }).text ?? JSON.stringify(p)))).join("\n");
  return content === undefined || content === null ? "" : JSON.stringify(content);
}

/** The conversation of a request and its completion as chat messages. */
function conversation(req: unknown, res: unknown): Message[] {
  const out: Message[] = [];
  const body = (req ?? {}) as { system?: unknown; messages?: { role: string; content: unknown; tool_calls?: unknown }[] };
  if (body.system) out.push({ role: "system", content: text(body.system) });
  for (const m of body.messages ?? []) {
    out.push({ role: m.role, content: text(m.content) + (m.tool_calls ? `\n[tool calls] ${JSON.stringify(m.tool_calls)}` : "") });
  }
  const r = (res ?? {}) as { choices?: { message?: { role: string; content: unknown; tool_calls?: unknown } }[]; content?: unknown; role?: string };
  for (const c of r.choices ?? []) {
    if (c.message)
      out.push({
        role: c.message.role ?? "assistant",
        content: text(c.message.content) + (c.message.tool_calls ? `\n[tool calls] ${JSON.stringify(c.message.tool_calls)}` : ""),
      });
  }
  if (r.content !== undefined && !r.choices) out.push({ role: r.role ?? "assistant", content: text(r.content) });
  return out;
}

export function RequestDrawer({
  projectId,
  id,
  filters,
  onNavigate,
}: {
  projectId: string;
  id: string;
  filters: string;
  onNavigate: (id: string | null) => void;
}) {
  const project = useCurrentProject();
  const queryClient = useQueryClient();
  const [raw, setRaw] = useState(false);
  // Personal data is masked by the server unless an admin asks to reveal it (recorded there).
  const [reveal, setReveal] = useState(false);
  const base = `/api/projects/${projectId}`;
  const detail = useQuery({
    queryKey: ["request", projectId, id, filters, reveal],
    queryFn: () => request<Detail>(`${base}/requests/${id}?neighbours=true&${filters}${reveal ? "&reveal=true" : ""}`),
  });
  const review = useMutation({
    mutationFn: ({ scoreId, verdict }: { scoreId: string; verdict: string }) => request(`${base}/safety-scores/${scoreId}/review`, { json: { verdict } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["request", projectId, id] }),
  });
  const d = detail.data;
  return (
    <aside
      role="dialog"
      aria-label="Request detail"
      className="fixed inset-y-0 right-0 w-full max-w-2xl overflow-y-auto border-l border-zinc-200 bg-white p-4 shadow-xl dark:border-zinc-800 dark:bg-zinc-950"
    >
      <div className="mb-3 flex gap-2">
        <Button type="button" variant="ghost" disabled={!d?.neighbours.newer_id} onClick={() => onNavigate(d!.neighbours.newer_id)}>
          ← Previous
        </Button>
        <Button type="button" variant="ghost" disabled={!d?.neighbours.older_id} onClick={() => onNavigate(d!.neighbours.older_id)}>
          Next →
        </Button>
        <Button type="button" variant="ghost" onClick={() => setRaw(!raw)}>
          {raw ? "Chat" : "Raw JSON"}
        </Button>
        {project && can(project.role, "admin") && (
          <Button type="button" variant="ghost" onClick={() => setReveal(!reveal)}>
            {reveal ? "Mask PII" : "Reveal PII (recorded)"}
          </Button>
        )}
        <Button type="button" variant="secondary" className="ml-auto" onClick={() => onNavigate(null)}>
          Close
        </Button>
      </div>
      {detail.isError && <p role="alert">{detail.error.message}</p>}
      {d && (
        <div className="space-y-4 text-sm">
          <p>
            {d.model} · {d.provider} · {d.is_error ? "error" : "ok"} · {d.prompt_tokens}/{d.completion_tokens} tokens · ${d.cost_usd.toFixed(6)} ·{" "}
            {d.latency_ms} ms · {new Date(d.created_at).toLocaleString()}
          </p>
          {raw ? (
            <pre className="overflow-x-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-900">
              {JSON.stringify({ request_body: d.request_body, response_body: d.response_body, metadata: d.metadata }, null, 2)}
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
                  <span className="whitespace-pre-wrap">{m.content}</span>
                </li>
              ))}
            </ol>
          )}
          <h3 className="font-medium">Safety scores</h3>
          {d.safety_scores.length === 0 && <p>pending</p>}
          <ul className="space-y-2">
            {d.safety_scores.map((s) => (
              <li key={s.id} className="rounded border border-zinc-200 p-2 dark:border-zinc-800">
                <span className="font-medium">{s.scorer_name}</span>: {s.score_label} ({s.score_value ?? "-"}/5)
                <p className="text-xs text-zinc-600 dark:text-zinc-400">{s.rationale}</p>
                <ScoreHistory score={s} history={d.score_history} />
                {s.review && (
                  <p className="text-xs">
                    Reviewed {s.review.verdict.replace("_", " ")} by {s.review.reviewer}, {new Date(s.review.reviewed_at).toLocaleString()}
                  </p>
                )}
                {project && can(project.role, "member") && s.score_label !== "unscored" && (
                  <span className="mt-1 flex gap-2">
                    <Button type="button" variant="ghost" onClick={() => review.mutate({ scoreId: s.id, verdict: "false_positive" })}>
                      Mark false positive
                    </Button>
                    <Button type="button" variant="ghost" onClick={() => review.mutate({ scoreId: s.id, verdict: "confirmed" })}>
                      Confirm
                    </Button>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </aside>
  );
}
