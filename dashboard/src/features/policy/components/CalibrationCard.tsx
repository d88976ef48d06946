/**
 * "Calibration on reviewed calls" on the Policy page: for each scorer with reviews, what each
 * `unsafe_at` (2 to 5) would catch among the calls reviewed as confirmed and falsely flag among
 * those reviewed as false positives, judged on each call's current score, so a team picks its
 * thresholds on its own traffic. The policy's current `unsafe_at` is marked.
 */
import type { Policy, ScorerName } from "../../../../server/contract";
import { Card, cn, TableHead } from "../../../components/ui";
import { useCalibration } from "../hooks";

const pct = (n: number, of: number) => (of === 0 ? "–" : `${Math.round((100 * n) / of)}%`);

/** The calibration card. */
export function CalibrationCard({ projectId, policy }: { projectId: string; policy: Policy }) {
  const calibration = useCalibration(projectId);
  const scorers = (calibration.data?.scorers ?? []).filter((s) => s.confirmed + s.false_positives > 0);
  return (
    <Card title="Calibration on reviewed calls">
      <div className="flex flex-col gap-3 text-sm">
        <p className="text-zinc-700 dark:text-zinc-300">
          For each threshold: the calls reviewed as confirmed that it would flag (caught) and the calls reviewed as false positives it would flag too, on their
          current scores. Review calls in Safety triage to fill this in.
        </p>
        {calibration.isError && <p role="alert">{calibration.error.message}</p>}
        {calibration.isSuccess && scorers.length === 0 && <p>No reviewed calls yet.</p>}
        <div className="grid gap-4 md:grid-cols-2">
          {scorers.map((s) => (
            <table key={s.scorer_name} className="w-full text-left text-sm" aria-label={`Calibration of ${s.scorer_name}`}>
              <caption className="pb-1 text-left">
                <span className="font-mono">{s.scorer_name}</span>: {s.confirmed} confirmed, {s.false_positives} false positives
              </caption>
              <TableHead columns={["Unsafe from score", "Confirmed caught", "False positives flagged"]} />
              <tbody>
                {s.thresholds.map((t) => {
                  const current = policy.scorers[s.scorer_name as ScorerName].unsafe_at === t.unsafe_at;
                  return (
                    <tr key={t.unsafe_at} className={cn("border-b border-zinc-100 dark:border-zinc-900", current && "font-semibold")}>
                      <th scope="row" className="py-1 pr-3 font-normal">
                        {t.unsafe_at}
                        {current ? " (policy)" : ""}
                      </th>
                      <td className="py-1 pr-3">
                        {t.caught} of {s.confirmed} ({pct(t.caught, s.confirmed)})
                      </td>
                      <td className="py-1 pr-3">
                        {t.flagged} of {s.false_positives} ({pct(t.flagged, s.false_positives)})
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          ))}
        </div>
      </div>
    </Card>
  );
}
