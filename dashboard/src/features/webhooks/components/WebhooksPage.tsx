/**
 * Webhooks page (docs/webhooks.md): create an alert endpoint (its signing secret shown once),
 * list, send a test event, delete, and see an endpoint's recent deliveries, dead-letter records
 * included. Admins manage endpoints; every member sees them.
 */
import { type FormEvent, useState } from "react";
import { ALERT_FORMATS, type AlertFormat, type CreatedWebhook, type NewWebhook, roleAtLeast, SCORER_NAMES, type ScorerName } from "../../../../server/contract";
import { Alert, Button, Card, CodeBlock, ConfirmDelete, DataTable, Field, Modal, PageTitle, RowActions, RowButton, Select, when } from "../../../components/ui";
import { useCurrentProject } from "../../projects/hooks";
import { useWebhookActions, useWebhooks } from "../hooks";
import { Deliveries } from "./Deliveries";

/** Choices of `min_score` (Likert 1-5). */
const MIN_SCORE_OPTIONS = [1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: `${n} or higher` }));

/** How each body format is named in the form. */
const FORMAT_LABELS: Record<AlertFormat, string> = { standard: "Standard Webhooks (JSON)", slack: "Slack incoming webhook" };
const FORMAT_OPTIONS = ALERT_FORMATS.map((f) => ({ value: f, label: FORMAT_LABELS[f] }));

/** The create form; `onCreate` gets the request body. */
function CreateForm({ onCreate, pending }: { onCreate: (w: NewWebhook) => void; pending: boolean }) {
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const scorers = SCORER_NAMES.filter((s) => data.getAll("scorers").includes(s)) satisfies ScorerName[];
    onCreate({
      url: String(data.get("url")).trim(),
      min_score: Number(data.get("min_score")),
      format: ALERT_FORMATS.find((f) => f === data.get("format")) ?? "standard",
      ...(scorers.length ? { scorers } : {}),
    });
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-[24rem] flex-1">
          <Field label="Endpoint URL" id="webhook-url" name="url" type="url" required placeholder="https://hooks.example.com/sightline" />
        </div>
        <Select id="webhook-min-score" label="Alert from score" name="min_score" defaultValue="4" options={MIN_SCORE_OPTIONS} />
        <Select id="webhook-format" label="Format" name="format" defaultValue="standard" options={FORMAT_OPTIONS} />
      </div>
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <legend className="mb-1 font-medium">Scorers (none ticked: all)</legend>
        {SCORER_NAMES.map((s) => (
          <label key={s} className="flex items-center gap-1">
            <input type="checkbox" name="scorers" value={s} /> {s}
          </label>
        ))}
      </fieldset>
      <div>
        <Button type="submit" disabled={pending}>
          Create webhook
        </Button>
      </div>
    </form>
  );
}

/** The Webhooks page. */
export function WebhooksPage() {
  const project = useCurrentProject()!;
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [tested, setTested] = useState<string | null>(null);
  const endpoints = useWebhooks(project.id);
  const actions = useWebhookActions(project.id, (e) => setError(e.message));
  const admin = roleAtLeast(project.role, "admin");
  const items = endpoints.data?.items ?? [];
  const chosen = items.find((e) => e.id === selected) ?? null;

  const create = (w: NewWebhook) => {
    setError(null);
    actions.create.mutate(w, { onSuccess: (c) => setCreated(c) });
  };
  const test = (id: string, url: string) => {
    setError(null);
    setTested(null);
    setSelected(id);
    actions.test.mutate(id, {
      onSuccess: (d) =>
        setTested(d.state === "delivered" ? `Test event delivered to ${url} (HTTP ${d.last_status}).` : `Test event to ${url} failed: ${d.last_error}.`),
    });
  };

  return (
    <>
      <PageTitle subtitle="Get a signed POST when a call scores unsafe. Events follow Standard Webhooks; failed deliveries are retried for about 28 hours.">
        Webhooks
      </PageTitle>
      <div className="flex flex-col gap-6">
        {admin ? (
          <Card title="Create a webhook">
            <CreateForm onCreate={create} pending={actions.create.isPending} />
          </Card>
        ) : (
          <Alert>Your role ({project.role}) can see webhooks but not create or change them.</Alert>
        )}
        {error && <Alert tone="error">{error}</Alert>}
        {tested && <Alert>{tested}</Alert>}
        <Card title="Endpoints">
          <DataTable
            columns={["URL", "Alert from", "Scorers", "Format", "Created", "Actions"]}
            items={items}
            pending={endpoints.isPending}
            empty="No webhooks yet."
            row={(e) => (
              <tr key={e.id} className="border-b border-zinc-100 dark:border-zinc-900">
                <th scope="row" className="max-w-xs truncate py-2 pr-3 font-mono font-normal">
                  {e.url}
                </th>
                <td className="py-2 pr-3">{e.min_score}</td>
                <td className="py-2 pr-3">{e.scorers ? e.scorers.join(", ") : "all"}</td>
                <td className="py-2 pr-3">{e.format}</td>
                <td className="py-2 pr-3">{when(e.created_at)}</td>
                <RowActions>
                  <RowButton label="Deliveries" name={`Deliveries of ${e.url}`} onClick={() => setSelected(e.id)} />
                  {admin && <RowButton label="Send test" name={`Send test to ${e.url}`} onClick={() => test(e.id, e.url)} disabled={actions.test.isPending} />}
                  {admin && (
                    <ConfirmDelete
                      subject={e.url}
                      what="webhook"
                      title="Delete this webhook?"
                      description={`${e.url} gets no more alerts, and its delivery records are deleted.`}
                      onConfirm={() => actions.remove.mutate(e.id, { onSuccess: () => selected === e.id && setSelected(null) })}
                    />
                  )}
                </RowActions>
              </tr>
            )}
          />
        </Card>
        {chosen && <Deliveries projectId={project.id} endpoint={chosen} />}
      </div>
      <Modal
        open={created !== null}
        onClose={() => setCreated(null)}
        title="Your webhook's signing secret"
        description="Copy it now: this is the only time the secret is shown. Verify each event's webhook-signature with it."
      >
        {created && <CodeBlock label="Signing secret" code={created.secret} />}
      </Modal>
    </>
  );
}
