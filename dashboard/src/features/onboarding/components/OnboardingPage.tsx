/**
 * Get started: how an empty project sends its first call (features/onboarding/components/Snippets),
 * then, once calls arrive, where to see them.
 */
import { Link } from "react-router";
import { Alert, PageTitle, QueryStatus } from "../../../components/ui";
import { useCurrentProject } from "../../projects/hooks";
import { useActivity } from "../hooks";
import { Snippets } from "./Snippets";

/** The Get started page. */
export function OnboardingPage() {
  const project = useCurrentProject()!;
  const activity = useActivity(project.id);
  const title = <PageTitle subtitle={`Send ${project.name}'s first call`}>Get started</PageTitle>;
  if (!activity.isSuccess) return <QueryStatus query={activity} title={title} />;
  const link = "text-indigo-700 underline dark:text-indigo-300";
  return (
    <>
      {title}
      <div className="flex flex-col gap-6">
        {activity.data.has_requests ? (
          <Alert tone="success">
            This project is receiving calls. See each call and its safety scores on the{" "}
            <Link className={link} to={`/p/${project.id}/requests`}>
              Requests
            </Link>{" "}
            page, and the trends on the{" "}
            <Link className={link} to={`/p/${project.id}/overview`}>
              Overview
            </Link>
            .
          </Alert>
        ) : (
          <Alert>
            No calls logged yet. First{" "}
            <Link className="underline" to={`/p/${project.id}/keys`}>
              create an API key
            </Link>
            , then use one of these.
          </Alert>
        )}
        <Snippets api_url={activity.data.api_url} proxy_url={activity.data.proxy_url} />
      </div>
    </>
  );
}
