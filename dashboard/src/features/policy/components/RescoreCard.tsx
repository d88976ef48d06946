/**
 * "Re-score past calls" on the Policy page (docs/rescoring.md): an admin picks how far back
 * (7, 30 or 90 days, the API's longest range) and starts a re-scoring job with today's scorers
 * and policy; the job's progress (calls re-scored of the range's total) is polled until it is
 * done. The job id is kept in the address (`?rescore=`), so a reload keeps showing it. Reviews
 * stay with their calls across the re-score.
 */
import { useState } from "react";
import { useSearchParams } from "react-router";
import { Alert, Button, Card, Select } from "../../../components/ui";
import { useRescoreJob, useStartRescore } from "../hooks";

const DAY_MS = 86_400_000;
const RANGES = [7, 30, 90].map((d) => ({ value: String(d), label: `Last ${d} days` }));
const calls = (n: number) => `${n.toLocaleString()} ${n === 1 ? "call" : "calls"}`;

/** The re-score card; `admin` may start a job, everyone sees a running one's progress. */
export function RescoreCard({ projectId, admin }: { projectId: string; admin: boolean }) {
  const [params, setParams] = useSearchParams();
  const [days, setDays] = useState("30");
  const jobId = params.get("rescore");
  const start = useStartRescore(projectId);
  const job = useRescoreJob(projectId, jobId);
  const running = start.isPending || job.data?.state === "running";
  const begin = () => {
    // One minute ahead: calls logged while the job is created are in its range.
    const until = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000;
    const since = until - Number(days) * DAY_MS;
    start.mutate(
      { since: new Date(since).toISOString(), until: new Date(until).toISOString() },
      {
        onSuccess: (j) => {
          const next = new URLSearchParams(params);
          next.set("rescore", j.id);
          setParams(next, { replace: true });
        },
      },
    );
  };
  const j = job.data;
  return (
    <Card title="Re-score past calls">
      <div className="flex flex-col gap-3 text-sm">
        <p className="text-zinc-700 dark:text-zinc-300">
          Scores stored calls again with today's scorers and this policy. Earlier scores stay in each call's history; reviews stay with their calls and say when
          the score changed since.
        </p>
        {admin && (
          <div className="flex flex-wrap items-end gap-3">
            <Select label="Calls from" value={days} onChange={(e) => setDays(e.target.value)} options={RANGES} disabled={running} />
            <Button onClick={begin} disabled={running}>
              Re-score
            </Button>
          </div>
        )}
        {start.error && <Alert tone="error">{start.error.message}</Alert>}
        {job.error && <Alert tone="error">{job.error.message}</Alert>}
        {j && (
          <div role="status" className="flex flex-col gap-1">
            <progress className="h-2 w-full max-w-md accent-indigo-600" value={j.done} max={Math.max(j.total, 1)} aria-label="Re-score progress" />
            <span>{j.state === "done" ? `Re-score done: ${calls(j.done)} re-scored.` : `Re-scoring: ${j.done.toLocaleString()} of ${calls(j.total)}.`}</span>
          </div>
        )}
      </div>
    </Card>
  );
}
