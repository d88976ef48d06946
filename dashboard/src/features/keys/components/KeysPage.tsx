/**
 * API keys of the project (docs/interface.md section 3.1): create with scopes (full key shown
 * once; a member may grant ingest and read, an admin or owner also admin), list with scopes and
 * status, rotate (new key shown once, old one refused after 60 s; only keys whose scopes the
 * user may grant), revoke and delete.
 */
import { useEffect, useState, type FormEvent } from "react";
import { type ApiKeyScope, type Role, roleAtLeast, scopesForRole, scopesWithin } from "../../../../server/contract";
import { Alert, Button, Card, CodeBlock, Confirm, DataTable, Field, Modal, PageTitle, RowActions, when } from "../../../components/ui";
import { useCurrentProject } from "../../projects/hooks";
import type { ApiKey, NewApiKey } from "../../../../server/contract";
import { useKeyMutations, useKeys } from "../hooks";

/** Re-renders every second while `active` (for the rotation countdown); returns the time now. */
function useNow(active: boolean) {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(t);
  }, [active]);
  return Date.now();
}

function Status({ k, now }: { k: ApiKey; now: number }) {
  if (k.revoked_at) return <span className="rounded bg-red-100 px-2 py-0.5 text-red-900 dark:bg-red-950 dark:text-red-200">Revoked</span>;
  if (k.expires_at) {
    const left = Math.ceil((new Date(k.expires_at).getTime() - now) / 1000);
    if (left > 0) return <span className="rounded bg-amber-100 px-2 py-0.5 text-amber-950 dark:bg-amber-950 dark:text-amber-100">Rotating: {left} s left</span>;
    return <span className="rounded bg-zinc-200 px-2 py-0.5 dark:bg-zinc-800">Expired</span>;
  }
  return <span className="rounded bg-emerald-100 px-2 py-0.5 text-emerald-950 dark:bg-emerald-950 dark:text-emerald-100">Active</span>;
}

/** What each scope lets a key do, as the create form explains it. */
const SCOPE_HINTS: Record<ApiKeyScope, string> = {
  ingest: "log calls (SDKs, proxy)",
  read: "read requests and scores, personal data masked",
  admin: "policy, webhooks, re-scoring, personal data unmasked (audited)",
};

/** What can be done to a listed key, each after a confirmation. */
type KeyAction = "Rotate" | "Revoke" | "Delete";

/** A key's actions, in button order: the role each needs, the keys it applies to, and what its dialog warns. */
const KEY_ACTIONS: readonly {
  action: KeyAction;
  role: Role;
  applies: (k: ApiKey, live: boolean, role: Role) => boolean;
  variant?: "ghost";
  description: string;
}[] = [
  {
    action: "Rotate",
    role: "member",
    applies: (k, live, role) => live && !k.expires_at && scopesWithin(k.scopes, scopesForRole(role)),
    description: "A new key is shown once. The current key keeps working for 60 seconds, then it is refused: deploy the new one within that minute.",
  },
  { action: "Revoke", role: "admin", applies: (k) => !k.revoked_at, description: "Calls with this key are refused (401) at once. This cannot be undone." },
  { action: "Delete", role: "admin", applies: () => true, variant: "ghost", description: "The key disappears from this list and is refused from now on." },
];

/** One key's row; `run(action, id)` runs an action the user confirmed. `now` (epoch ms) decides whether a rotated key still works. */
function KeyRow({ k, now, role, run }: { k: ApiKey; now: number; role: Role; run: (action: KeyAction, id: string) => void }) {
  const live = !k.revoked_at && !(k.expires_at && new Date(k.expires_at).getTime() <= now);
  return (
    <tr className="border-b border-zinc-100 dark:border-zinc-900">
      <th scope="row" className="py-2 pr-3 font-medium">
        {k.name}
      </th>
      <td className="py-2 pr-3 font-mono">{k.key_hint}</td>
      <td className="py-2 pr-3">{k.scopes.join(", ")}</td>
      <td className="py-2 pr-3">{k.created_by ?? "—"}</td>
      <td className="py-2 pr-3">{when(k.created_at)}</td>
      <td className="py-2 pr-3">{k.last_used_at ? when(k.last_used_at) : "Never"}</td>
      <td className="py-2 pr-3">
        <Status k={k} now={now} />
      </td>
      <RowActions>
        {KEY_ACTIONS.filter((a) => roleAtLeast(role, a.role) && a.applies(k, live, role)).map(({ action, variant, description }) => (
          <Confirm
            key={action}
            action={action}
            subject={k.name}
            variant={variant}
            title={`${action} “${k.name}”?`}
            description={description}
            confirmLabel={`${action} key`}
            onConfirm={() => run(action, k.id)}
          />
        ))}
      </RowActions>
    </tr>
  );
}

/** The API keys page. */
export function KeysPage() {
  const project = useCurrentProject()!;
  const keys = useKeys(project.id);
  const [shown, setShown] = useState<{ key: NewApiKey; rotated: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { create, rotate, revoke, remove } = useKeyMutations(project.id, {
    created: (key) => setShown({ key, rotated: false }),
    rotated: (key) => setShown({ key, rotated: true }),
    error: (e) => setError(e.message),
  });

  const mutations: Record<KeyAction, { mutate: (id: string) => void }> = { Rotate: rotate, Revoke: revoke, Delete: remove };
  const items = keys.data?.items ?? [];
  const now = useNow(items.some((k) => !k.revoked_at && k.expires_at && new Date(k.expires_at).getTime() > Date.now()));
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setError(null);
    const data = new FormData(e.currentTarget);
    const name = String(data.get("name")).trim();
    const scopes = data.getAll("scopes").map(String) as ApiKeyScope[];
    if (scopes.length === 0) return setError("Choose at least one scope.");
    if (name) create.mutate({ name, scopes });
    e.currentTarget.reset();
  };

  return (
    <>
      <PageTitle subtitle="Keys let your application and the proxy log calls to this project. A key is shown once, when it is created.">API keys</PageTitle>
      <div className="flex flex-col gap-6">
        {roleAtLeast(project.role, "member") ? (
          <Card title="Create a key">
            <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
              <Field label="Key name" id="key-name" name="name" required maxLength={100} placeholder="production" />
              <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
                <legend className="mb-1 font-medium">Scopes</legend>
                {scopesForRole(project.role).map((s) => (
                  <label key={s} className="flex items-center gap-1" title={SCOPE_HINTS[s]}>
                    <input type="checkbox" name="scopes" value={s} defaultChecked={s !== "admin"} /> {s}
                    <span className="text-zinc-600 dark:text-zinc-400">({SCOPE_HINTS[s]})</span>
                  </label>
                ))}
              </fieldset>
              <Button type="submit" disabled={create.isPending}>
                Create key
              </Button>
            </form>
          </Card>
        ) : (
          <Alert>Your role ({project.role}) can see keys but not create or change them.</Alert>
        )}
        {error && <Alert tone="error">{error}</Alert>}
        <Card title="Keys">
          <DataTable
            columns={["Name", "Key", "Scopes", "Created by", "Created", "Last used", "Status", "Actions"]}
            items={items}
            pending={keys.isPending}
            empty="No keys yet."
            row={(k) => <KeyRow key={k.id} k={k} now={now} role={project.role} run={(action, id) => mutations[action].mutate(id)} />}
          />
        </Card>
      </div>
      <Modal
        open={shown !== null}
        onClose={() => setShown(null)}
        title={shown?.rotated ? "Your rotated key" : "Your new API key"}
        description={
          shown?.rotated
            ? "Deploy it within 60 seconds: the old key is refused after that. This is the only time the key is shown."
            : "Copy it now: this is the only time the full key is shown."
        }
      >
        {shown && (
          <div className="flex flex-col gap-4">
            <CodeBlock label="API key" code={shown.key.key} />
            <CodeBlock label=".env line" code={`SERVICE_API_KEY=${shown.key.key}`} />
          </div>
        )}
      </Modal>
    </>
  );
}
