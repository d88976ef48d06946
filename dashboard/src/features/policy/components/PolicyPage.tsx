/**
 * Policy page (docs/policy.md): per scorer whether it runs and from which score its label is
 * unsafe, the values pii_detection must not flag, whether personal data is masked before
 * storage, and the guard-model judge with its monthly call budget (docs/scoring.md). Admins
 * edit; other members read. Saving replaces the whole policy (PUT); the API's 422 `{detail}`
 * names the field it refused. Below: re-scoring past calls (./RescoreCard.tsx) and what each
 * threshold would do on the project's reviewed calls (./CalibrationCard.tsx).
 */
import { type FormEvent, type ReactNode, useState } from "react";
import { JUDGE_MODES, type JudgeMode, type Policy, type PolicyInput, roleAtLeast, SCORER_NAMES, STORE_PII_MODES } from "../../../../server/contract";
import { Alert, Button, Card, Field, PageTitle, QueryStatus, Select, TableHead, when } from "../../../components/ui";
import { useCurrentProject } from "../../projects/hooks";
import { usePolicy, useSavePolicy } from "../hooks";
import { CalibrationCard } from "./CalibrationCard";
import { RescoreCard } from "./RescoreCard";

/** Choices of `unsafe_at` (the API accepts 3, 4 or 5). */
const UNSAFE_AT_OPTIONS = [3, 4, 5].map((v) => ({ value: String(v), label: `${v} or higher` }));

/** What each `judge` mode means, as the page says it. */
const JUDGE_WORDS: Record<JudgeMode, string> = { off: "Off: local scorers only", uncertain: "Where the local scorer is unsure", all: "Every scored call" };

/** Choices of `judge`, as the API names them. */
const JUDGE_OPTIONS = JUDGE_MODES.map((m) => ({ value: m, label: JUDGE_WORDS[m] }));

/** A card of the form whose settings stand one under the other. */
function SettingsCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card title={title}>
      <div className="flex flex-col gap-4 text-sm">{children}</div>
    </Card>
  );
}

/** The form's values as the PUT body. */
function readForm(form: HTMLFormElement): PolicyInput {
  const data = new FormData(form);
  const scorers = Object.fromEntries(
    SCORER_NAMES.map((name) => {
      const settings = { enabled: data.get(`${name}.enabled`) === "on", unsafe_at: Number(data.get(`${name}.unsafe_at`)) as 3 | 4 | 5 };
      if (name !== "pii_detection") return [name, settings];
      const allow = String(data.get("pii_detection.allow") ?? "")
        .split("\n")
        .map((v) => v.trim())
        .filter(Boolean);
      return [name, { ...settings, allow }];
    }),
  );
  return {
    scorers,
    store_pii: STORE_PII_MODES.find((m) => m === data.get("store_pii")) ?? "keep",
    judge: JUDGE_MODES.find((m) => m === data.get("judge")) ?? "off",
    judge_monthly_budget: Number(data.get("judge_monthly_budget")),
  };
}

function PolicyForm({ policy, admin, onSave, pending }: { policy: Policy; admin: boolean; onSave: (p: PolicyInput) => void; pending: boolean }) {
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onSave(readForm(e.currentTarget));
  };
  // Remount on a new version so the inputs show what was stored.
  return (
    <form key={policy.version} onSubmit={submit} className="flex flex-col gap-6">
      <fieldset disabled={!admin} className="flex flex-col gap-6">
        <Card title="Scorers">
          <table className="w-full text-left text-sm">
            <TableHead columns={["Scorer", "Runs", "Unsafe from score"]} />
            <tbody>
              {SCORER_NAMES.map((name) => {
                const s = policy.scorers[name];
                return (
                  <tr key={name} className="border-b border-zinc-100 dark:border-zinc-900">
                    <th scope="row" className="py-2 pr-3 font-mono font-normal">
                      {name}
                    </th>
                    <td className="py-2 pr-3">
                      <input type="checkbox" name={`${name}.enabled`} defaultChecked={s.enabled} aria-label={`Run ${name}`} />
                    </td>
                    <td className="py-2 pr-3">
                      <Select
                        label={`${name} unsafe from score`}
                        hideLabel
                        name={`${name}.unsafe_at`}
                        defaultValue={String(s.unsafe_at)}
                        className="py-1"
                        options={UNSAFE_AT_OPTIONS}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </Card>
        <SettingsCard title="Personal data">
          <div className="flex flex-col gap-1">
            <label htmlFor="pii-allow" className="font-medium">
              Not personal data (pii_detection allow list)
            </label>
            <p className="text-zinc-600 dark:text-zinc-400">One per line: an exact value (support@acme.example) or an e-mail domain (@acme.example).</p>
            <textarea
              id="pii-allow"
              name="pii_detection.allow"
              rows={4}
              defaultValue={policy.scorers.pii_detection.allow.join("\n")}
              className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 font-mono dark:border-zinc-700 dark:bg-zinc-900"
            />
          </div>
          <fieldset className="flex flex-col gap-1">
            <legend className="mb-1 font-medium">Storing personal data</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name="store_pii" value="keep" defaultChecked={policy.store_pii === "keep"} /> Keep request and response bodies as logged
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="store_pii" value="mask" defaultChecked={policy.store_pii === "mask"} /> Mask personal data before storage
            </label>
          </fieldset>
        </SettingsCard>
        <SettingsCard title="Guard model">
          <p className="text-zinc-600 dark:text-zinc-400">
            A guard model (Llama Guard, or an instruct model with a written policy) decides the scores of content_safety, jailbreak_detection, vector_weakness
            and data_poisoning. Needs a judge backend on the scorer worker; each call is billed by its provider.
          </p>
          <Select label="Ask the guard model" name="judge" defaultValue={policy.judge} options={JUDGE_OPTIONS} />
          <Field
            label="Guard-model calls per month"
            id="judge-monthly-budget"
            name="judge_monthly_budget"
            type="number"
            min={0}
            step={1}
            required
            defaultValue={policy.judge_monthly_budget}
          />
          <p className="text-zinc-600 dark:text-zinc-400">
            {policy.judge_calls_this_month} used this month (UTC). Once the budget is spent, the local scores stand.
          </p>
        </SettingsCard>
      </fieldset>
      {admin && (
        <div>
          <Button type="submit" disabled={pending}>
            Save policy
          </Button>
        </div>
      )}
    </form>
  );
}

/** The Policy page. */
export function PolicyPage() {
  const project = useCurrentProject()!;
  const policy = usePolicy(project.id);
  const save = useSavePolicy(project.id);
  const [saved, setSaved] = useState<number | null>(null);
  const admin = roleAtLeast(project.role, "admin");
  const title = (
    <PageTitle subtitle="How calls of this project are scored and stored. Changes apply to calls scored from now on; re-score to apply them to past calls.">
      Policy
    </PageTitle>
  );
  if (!policy.isSuccess) return <QueryStatus query={policy} title={title} />;
  const p = policy.data;
  return (
    <>
      {title}
      <div className="flex flex-col gap-4">
        {!admin && <Alert>Your role ({project.role}) can see the policy but not change it.</Alert>}
        {save.error && <Alert tone="error">{save.error.message}</Alert>}
        {saved !== null && !save.error && <Alert tone="success">Policy saved (version {saved}).</Alert>}
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Version {p.version}
          {p.updated_at ? ` · changed ${when(p.updated_at)}` : " · defaults"}
        </p>
        <PolicyForm
          policy={p}
          admin={admin}
          pending={save.isPending}
          onSave={(input) => {
            setSaved(null);
            save.mutate(input, { onSuccess: (s) => setSaved(s.version) });
          }}
        />
        <RescoreCard projectId={project.id} admin={admin} />
        <CalibrationCard projectId={project.id} policy={p} />
      </div>
    </>
  );
}
