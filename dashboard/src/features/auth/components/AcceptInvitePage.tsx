/** `/invite/:id`: a signed-in user accepts an invitation to an organisation. */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { Alert, Button } from "../../../components/ui";
import { authClient } from "../../../lib/auth-client";

export function AcceptInvitePage() {
  const { invitationId = "" } = useParams();
  const session = authClient.useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const next = encodeURIComponent(`/invite/${invitationId}`);
  const accept = async () => {
    const { error } = await authClient.organization.acceptInvitation({ invitationId });
    if (error) return setError(error.message || "This invitation cannot be accepted.");
    await queryClient.invalidateQueries();
    await navigate("/");
  };
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 px-4">
      <h1 className="text-2xl font-semibold">Join an organisation on Sightline</h1>
      {session.isPending ? (
        <p>Loading…</p>
      ) : session.data ? (
        <>
          <p>You are signed in as {session.data.user.email}. The invitation must be for this email.</p>
          {error && <Alert tone="error">{error}</Alert>}
          <Button onClick={() => void accept()}>Accept invitation</Button>
        </>
      ) : (
        <p>
          <Link className="underline" to={`/sign-in?next=${next}`}>
            Sign in
          </Link>{" "}
          or{" "}
          <Link className="underline" to={`/sign-up?next=${next}`}>
            create an account
          </Link>{" "}
          with the invited email to accept.
        </p>
      )}
    </main>
  );
}
