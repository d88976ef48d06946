/** `/`: sends a signed-in user to their first project (onboarding while it is empty). */
import { Navigate } from "react-router";
import { useProjects } from "../../projects/hooks";

/** Redirects to the first project's Get started page, or to sign-in without a session. */
export function HomePage() {
  const projects = useProjects();
  if (projects.isError) return <Navigate to="/sign-in" replace />;
  const first = projects.data?.items[0];
  if (!first) return <p className="p-8">Loading…</p>;
  return <Navigate to={`/p/${first.id}/start`} replace />;
}
