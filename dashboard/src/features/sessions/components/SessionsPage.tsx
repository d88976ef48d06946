/**
 * Sessions (issue 33.2, docs/sessions.md): the project's conversations (calls sharing
 * `metadata.session_id`), most recently active first, with their call counts, unsafe calls and
 * session-level jailbreak score; choosing one shows the conversation as a timeline, one turn per
 * call with its preview and score chips, under the session's score. The chosen session is in the
 * address (`?session=`), so it can be shared and survives a reload.
 */
import { useSearchParams } from "react-router";
import type { SessionDetail, SessionSummary } from "../../../../server/contract";
import { Button, DataTable, PageTitle, when } from "../../../components/ui";
import { useCurrentProject } from "../../projects/hooks";
import { RequestDrawer } from "../../requests/components/RequestDrawer";
import { SafetyCell, ScoreChip } from "../../requests/components/ScoreChips";
import { SESSIONS_PER_PAGE, useSession, useSessionPage } from "../hooks";
import { withChanges } from "../../../lib/search-params";

type SessionScore = SessionDetail["session_scores"][number];

/** The session-level jailbreak score as a chip with its value, or a pending chip before the first scored call. */
function SessionScoreChip({ score }: { score: SessionScore | null | undefined }) {
  if (!score) return <ScoreChip label="session jailbreak" state="pending" />;
  return <ScoreChip label="session jailbreak" state={score.score_label} detail={`${score.score_value} of 5`} />;
}

/** The Sessions page: the list, and the chosen session's timeline. */
export function SessionsPage() {
  const project = useCurrentProject()!;
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get("page")) || 1);
  const chosen = params.get("session");
  const list = useSessionPage(project.id, page);
  const set = (changes: Record<string, string | null>) => {
    const next = withChanges(params, changes);
    setParams(next);
  };
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / SESSIONS_PER_PAGE));
  return (
    <div className="space-y-4">
      <PageTitle subtitle="Calls that share metadata.session_id, judged as one conversation as well as turn by turn.">Sessions</PageTitle>
      {list.isError && <p role="alert">{list.error.message}</p>}
      <DataTable<SessionSummary>
        columns={["Session", "Last call", "Calls", "Unsafe calls", "Session score"]}
        items={list.data?.items ?? []}
        pending={list.isPending}
        empty="No sessions yet. Send metadata.session_id with your calls (or the X-Sightline-Session-Id header through the proxy)."
        row={(s) => (
          <tr key={s.session_id} className="border-b border-zinc-100 dark:border-zinc-900" aria-current={s.session_id === chosen ? "true" : undefined}>
            <td className="py-2 pr-3">
              <button
                type="button"
                className="max-w-[18rem] truncate text-left font-medium text-indigo-700 underline dark:text-indigo-300"
                title={s.session_id}
                onClick={() => set({ session: s.session_id, open: null })}
              >
                {s.session_id}
              </button>
            </td>
            <td className="whitespace-nowrap py-2 pr-3">{when(s.last_call_at)}</td>
            <td className="py-2 pr-3">{s.calls}</td>
            <td className="py-2 pr-3">{s.unsafe_calls}</td>
            <td className="py-2 pr-3">
              <SessionScoreChip score={s.session_score} />
            </td>
          </tr>
        )}
      />
      {pages > 1 && (
        <nav aria-label="Session pages" className="flex items-center gap-2 text-sm">
          <Button variant="secondary" disabled={page <= 1} onClick={() => set({ page: String(page - 1) })}>
            Newer
          </Button>
          <span>
            Page {page} of {pages}
          </span>
          <Button variant="secondary" disabled={page >= pages} onClick={() => set({ page: String(page + 1) })}>
            Older
          </Button>
        </nav>
      )}
      {chosen && <SessionTimeline projectId={project.id} sessionId={chosen} onOpen={(id) => set({ open: id })} />}
      {params.get("open") && <RequestDrawer id={params.get("open")!} filters="" onNavigate={(id) => set({ open: id })} />}
    </div>
  );
}

/** One conversation: the session score, then each call as a turn of the timeline, oldest first. */
function SessionTimeline({ projectId, sessionId, onOpen }: { projectId: string; sessionId: string; onOpen: (id: string) => void }) {
  const session = useSession(projectId, sessionId);
  const score = session.data?.session_scores.find((s) => s.scorer_name === "jailbreak_detection");
  return (
    <section aria-labelledby="session-title" className="space-y-3 rounded-md border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 id="session-title" className="text-lg font-semibold">
        Session <span className="font-mono text-base">{sessionId}</span>
      </h2>
      {session.isPending && <p>Loading…</p>}
      {session.isError && <p role="alert">{session.error.message}</p>}
      {session.isSuccess && (
        <>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <SessionScoreChip score={score} />
            {score && (
              <span className="text-zinc-700 dark:text-zinc-300">
                {score.rationale} ({score.turns} turns, decided by {score.decided_by})
              </span>
            )}
          </div>
          {session.data.truncated && <p className="text-sm">Only the first {session.data.calls.length} calls are shown.</p>}
          <ol className="relative space-y-3 border-l-2 border-zinc-200 pl-4 dark:border-zinc-700" aria-label="Conversation timeline">
            {session.data.calls.map((c, i) => (
              <li key={c.id} className="space-y-1">
                <div className="flex flex-wrap items-baseline gap-x-3 text-sm">
                  <span className="font-semibold">Turn {i + 1}</span>
                  <span className="whitespace-nowrap text-zinc-700 dark:text-zinc-300">{when(c.created_at)}</span>
                  <span className="text-zinc-700 dark:text-zinc-300">{c.model}</span>
                  <button type="button" className="text-indigo-700 underline dark:text-indigo-300" onClick={() => onOpen(c.id)}>
                    Open call
                  </button>
                </div>
                <p className="text-sm">{c.preview ?? <span className="italic">no user text</span>}</p>
                <SafetyCell scores={c.scores} />
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
