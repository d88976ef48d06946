/**
 * Projects (issue 25.6): every project the user can open, by organisation; owners and admins
 * create, rename and delete them (the server checks the role again). Deleting the project on
 * screen moves to another one.
 */
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { roleAtLeast } from "../../../../server/contract";
import { Alert, Button, Card, ConfirmDelete, DataTable, Field, PageTitle, RowActions, RowButton, Select, when } from "../../../components/ui";
import type { Project } from "../../../../server/contract";
import { useCurrentProject, useProjectMutations, useProjects } from "../hooks";

/** One project's row: name (or its rename form), created, role, actions. */
function ProjectRow({ p, manage, onError }: { p: Project; manage: boolean; onError: (e: Error) => void }) {
  const current = useCurrentProject();
  const projects = useProjects();
  const navigate = useNavigate();
  const { rename, remove } = useProjectMutations();
  const [editing, setEditing] = useState(false);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const name = String(new FormData(e.currentTarget).get("name")).trim();
    if (name) rename.mutate({ id: p.id, name }, { onSuccess: () => setEditing(false), onError });
  };
  const deleted = () => {
    if (current?.id !== p.id) return;
    const other = projects.data?.items.find((x) => x.id !== p.id);
    void navigate(other ? `/p/${other.id}/projects` : "/", { replace: true });
  };
  return (
    <tr className="border-b border-zinc-100 dark:border-zinc-900">
      <th scope="row" className="py-2 pr-3 font-medium">
        {editing ? (
          <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
            <Field label={`New name of ${p.name}`} id={`rename-${p.id}`} name="name" defaultValue={p.name} required maxLength={200} autoFocus />
            <Button type="submit" disabled={rename.isPending}>
              Save
            </Button>
            <Button variant="ghost" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </form>
        ) : (
          <>
            {p.name}
            {current?.id === p.id && <span className="ml-2 text-xs font-normal text-zinc-700 dark:text-zinc-300">(open now)</span>}
          </>
        )}
      </th>
      <td className="py-2 pr-3">{when(p.created_at)}</td>
      <td className="py-2 pr-3">{p.role}</td>
      <RowActions>
        <RowButton variant="ghost" label="Open" name={`Open ${p.name}`} onClick={() => void navigate(`/p/${p.id}/requests`)} />
        {manage && !editing && <RowButton label="Rename" name={`Rename ${p.name}`} onClick={() => setEditing(true)} />}
        {manage && (
          <ConfirmDelete
            subject={p.name}
            what="project"
            description="Its keys stop working at once, and its logged calls, scores and subscription are deleted. This cannot be undone."
            onConfirm={() => remove.mutate(p.id, { onSuccess: deleted, onError })}
          />
        )}
      </RowActions>
    </tr>
  );
}

/** The Projects page. */
export function ProjectsPage() {
  const projects = useProjects();
  const navigate = useNavigate();
  const { create } = useProjectMutations();
  const [error, setError] = useState<string | null>(null);
  const items = projects.data?.items ?? [];
  const orgs = [...new Map(items.map((p) => [p.organization_id, { id: p.organization_id, name: p.organization_name, role: p.role }])).values()];
  const manageable = orgs.filter((o) => roleAtLeast(o.role, "admin"));
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setError(null);
    const form = new FormData(e.currentTarget);
    const name = String(form.get("name")).trim();
    const organization_id = String(form.get("organization_id") ?? manageable[0]?.id);
    if (!name) return;
    e.currentTarget.reset();
    create.mutate({ name, organization_id }, { onSuccess: (p) => void navigate(`/p/${p.id}/requests`), onError: (err) => setError(err.message) });
  };
  return (
    <>
      <PageTitle subtitle="Each project has its own keys, logged calls, scores and plan.">Projects</PageTitle>
      <div className="flex flex-col gap-6">
        {error && <Alert tone="error">{error}</Alert>}
        {manageable.length > 0 ? (
          <Card title="Create a project">
            <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
              <Field label="Project name" id="project-name" name="name" required maxLength={200} placeholder="production" />
              {manageable.length > 1 && (
                <Select label="Organisation" id="project-org" name="organization_id" options={manageable.map((o) => ({ value: o.id, label: o.name }))} />
              )}
              <Button type="submit" disabled={create.isPending}>
                Create project
              </Button>
            </form>
          </Card>
        ) : (
          <Alert>Only owners and admins create, rename and delete projects.</Alert>
        )}
        {orgs.map((o) => (
          <Card key={o.id} title={o.name}>
            <DataTable
              columns={["Name", "Created", "Your role", "Actions"]}
              items={items.filter((p) => p.organization_id === o.id)}
              row={(p) => <ProjectRow key={p.id} p={p} manage={roleAtLeast(p.role, "admin")} onError={(e) => setError(e.message)} />}
            />
          </Card>
        ))}
      </div>
    </>
  );
}
