/** Recent deliveries of one alert endpoint, newest first; `dead` rows are the dead-letter records. */
import type { DeliveryState, WebhookDelivery, WebhookEndpoint } from "../../../../server/contract";
import { Card, DataTable, when } from "../../../components/ui";
import { useDeliveries } from "../hooks";

const STATE_STYLE: Record<DeliveryState, string> = {
  delivered: "bg-emerald-100 text-emerald-950 dark:bg-emerald-950 dark:text-emerald-100",
  retrying: "bg-amber-100 text-amber-950 dark:bg-amber-950 dark:text-amber-100",
  pending: "bg-zinc-200 dark:bg-zinc-800",
  dead: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

/** What to say about a delivery's last attempt. */
function outcome(d: WebhookDelivery): string {
  if (d.state === "retrying") return `${d.last_error ?? "failed"}; next attempt ${when(d.next_attempt_at)}`;
  if (d.state === "dead") return `${d.last_error ?? "failed"} (dead letter)`;
  return d.last_status === null ? "—" : `HTTP ${d.last_status}`;
}

/** The deliveries card of `endpoint` (refreshed every 5 s). */
export function Deliveries({ projectId, endpoint }: { projectId: string; endpoint: WebhookEndpoint }) {
  const deliveries = useDeliveries(projectId, endpoint.id);
  return (
    <Card title={`Recent deliveries to ${endpoint.url}`}>
      <DataTable
        columns={["Created", "Event", "State", "Attempts", "Outcome"]}
        items={deliveries.data?.items ?? []}
        pending={deliveries.isPending}
        empty="No deliveries yet."
        row={(d) => (
          <tr key={d.id} className="border-b border-zinc-100 dark:border-zinc-900">
            <td className="py-2 pr-3">{when(d.created_at)}</td>
            <td className="py-2 pr-3 font-mono">{d.event_type}</td>
            <td className="py-2 pr-3">
              <span className={`rounded px-2 py-0.5 ${STATE_STYLE[d.state]}`}>{d.state}</span>
            </td>
            <td className="py-2 pr-3">{d.attempts}</td>
            <td className="py-2 pr-3">{outcome(d)}</td>
          </tr>
        )}
      />
    </Card>
  );
}
