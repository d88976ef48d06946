/**
 * Members of the project's organisation (owner/admin manage; others read): invite by email
 * (the invite link is shown to copy; no email is sent), change roles, remove. Calls Better
 * Auth's organisation routes, which check the caller's role on the server.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Confirm } from "../components/dialogs";
import { Alert, Button, Card, CodeBlock, Field, PageTitle } from "../components/ui";
import { can, queryKeys } from "../lib/api";
import { authClient } from "../lib/auth-client";
import { useCurrentProject, useProjects } from "../lib/projects";

const ROLES = ["viewer", "member", "admin", "owner"] as const;
type Role = (typeof ROLES)[number];

/** Unwraps a Better Auth client result, throwing its message. */
async function unwrap<T>(p: Promise<{ data: T | null; error: { message?: string; status?: number } | null }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(error.message || `request failed (${error.status})`);
  return data as T;
}

export function Members() {
  const project = useCurrentProject()!;
  const me = useProjects().data?.user.email;
  const orgId = project.organization_id;
  const queryClient = useQueryClient();
  const manage = can(project.role, "admin");
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const org = useQuery({
    queryKey: queryKeys.organization(orgId),
    queryFn: () => unwrap(authClient.organization.getFullOrganization({ query: { organizationId: orgId } })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.organization(orgId) });
  const onError = (e: Error) => setError(e.message);
  const invite = useMutation({
    mutationFn: (v: { email: string; role: Role }) => unwrap(authClient.organization.inviteMember({ ...v, organizationId: orgId })),
    onSuccess: (inv) => setLink(`${window.location.origin}/invite/${(inv as { id: string }).id}`),
    onError,
    onSettled: refresh,
  });
  const changeRole = useMutation({
    mutationFn: (v: { memberId: string; role: Role }) => unwrap(authClient.organization.updateMemberRole({ ...v, organizationId: orgId })),
    onError,
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (memberId: string) => unwrap(authClient.organization.removeMember({ memberIdOrEmail: memberId, organizationId: orgId })),
    onError,
    onSettled: refresh,
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setError(null);
    const f = new FormData(e.currentTarget);
    invite.mutate({ email: String(f.get("email")), role: String(f.get("role")) as Role });
  };
  const members = org.data?.members ?? [];
  const invitations = (org.data?.invitations ?? []).filter((i) => i.status === "pending");
  return (
    <>
      <PageTitle subtitle={`People in ${project.organization_name}, which owns ${project.name}`}>Members</PageTitle>
      <div className="flex flex-col gap-6">
        {error && <Alert tone="error">{error}</Alert>}
        {manage && (
          <Card title="Invite a member">
            <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
              <Field label="Email to invite" id="invite-email" name="email" type="email" required />
              <div className="flex flex-col gap-1">
                <label htmlFor="invite-role" className="text-sm font-medium">
                  Role
                </label>
                <select
                  id="invite-role"
                  name="role"
                  defaultValue="member"
                  className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
                >
                  {ROLES.filter((r) => r !== "owner" || project.role === "owner").map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
              </div>
              <Button type="submit" disabled={invite.isPending}>
                Create invite link
              </Button>
            </form>
            {link && (
              <div className="mt-4">
                <CodeBlock label="Invite link" code={link} />
                <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">No email is sent: share this link. It works for the invited email, for 7 days.</p>
              </div>
            )}
          </Card>
        )}
        <Card title="Members">
          {org.isPending ? (
            <p>Loading…</p>
          ) : (
            <table className="w-full text-left text-sm">
              <thead className="border-b border-zinc-200 dark:border-zinc-800">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Email
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Role
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody>
                {members.map((m) => (
                  <tr key={m.id} className="border-b border-zinc-100 dark:border-zinc-900">
                    <th scope="row" className="py-2 pr-3 font-medium">
                      {m.user.email}
                    </th>
                    <td className="py-2 pr-3">
                      {manage && m.user.email !== me && (m.role !== "owner" || project.role === "owner") ? (
                        <select
                          aria-label={`Role of ${m.user.email}`}
                          value={m.role}
                          onChange={(e) => changeRole.mutate({ memberId: m.id, role: e.target.value as Role })}
                          className="rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
                        >
                          {ROLES.filter((r) => r !== "owner" || project.role === "owner").map((r) => (
                            <option key={r}>{r}</option>
                          ))}
                        </select>
                      ) : (
                        m.role
                      )}
                    </td>
                    <td className="py-2">
                      {manage && m.user.email !== me && (m.role !== "owner" || project.role === "owner") && (
                        <Confirm
                          action="Remove"
                          subject={m.user.email}
                          variant="ghost"
                          title={`Remove ${m.user.email}?`}
                          description="They lose access to every project of this organisation at once."
                          confirmLabel="Remove member"
                          onConfirm={() => remove.mutate(m.id)}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Card>
        {invitations.length > 0 && (
          <Card title="Pending invitations">
            <ul className="flex flex-col gap-2 text-sm">
              {invitations.map((i) => (
                <li key={i.id}>
                  {i.email} as {i.role}, until {new Date(i.expiresAt).toLocaleDateString()}
                </li>
              ))}
            </ul>
          </Card>
        )}
      </div>
    </>
  );
}
