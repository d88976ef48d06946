/**
 * Members of the project's organisation (owner/admin manage; others read): invite by email
 * (the invite link is shown to copy; no email is sent), change roles, remove. Calls Better
 * Auth's organisation routes, which check the caller's role on the server.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ROLES, type Role, roleAtLeast } from "../../../../server/contract";
import { Alert, Button, Card, CodeBlock, Confirm, Field, PageTitle, Select } from "../../../components/ui";
import { authClient } from "../../../lib/auth-client";
import { useCurrentProject, useProjects } from "../../projects/hooks";

/** Query keys of the feature. */
export const memberKeys = { organization: (organizationId: string) => ["organization", organizationId] as const };

/** Unwraps a Better Auth client result, throwing its message. */
async function unwrap<T>(p: Promise<{ data: T | null; error: { message?: string; status?: number } | null }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(error.message || `request failed (${error.status})`);
  return data as T;
}

/** The members page. */
export function MembersPage() {
  const project = useCurrentProject()!;
  const me = useProjects().data?.user.email;
  const orgId = project.organization_id;
  const queryClient = useQueryClient();
  const manage = roleAtLeast(project.role, "admin");
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const org = useQuery({
    queryKey: memberKeys.organization(orgId),
    queryFn: () => unwrap(authClient.organization.getFullOrganization({ query: { organizationId: orgId } })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: memberKeys.organization(orgId) });
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
  /** Whether the user may change `m`'s role or remove them: admins manage others, and only owners touch owners. */
  const canChange = (m: (typeof members)[number]) => manage && m.user.email !== me && (m.role !== "owner" || project.role === "owner");
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
              <Select
                id="invite-role"
                name="role"
                label="Role"
                defaultValue="member"
                options={ROLES.filter((r) => r !== "owner" || project.role === "owner")}
              />
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
                      {canChange(m) ? (
                        <Select
                          label={`Role of ${m.user.email}`}
                          hideLabel
                          className="py-1"
                          value={m.role}
                          onChange={(e) => changeRole.mutate({ memberId: m.id, role: e.target.value as Role })}
                          options={ROLES.filter((r) => r !== "owner" || project.role === "owner")}
                        />
                      ) : (
                        m.role
                      )}
                    </td>
                    <td className="py-2">
                      {canChange(m) && (
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
