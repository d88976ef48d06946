/**
 * An empty project's Requests page: "waiting for your first call" (the page keeps asking, and
 * turns into the table by itself when a call is logged) above the snippets that send one.
 */
import { Link } from "react-router";
import { Card } from "../../../components/ui";
import { Snippets } from "../../onboarding/components/Snippets";
import { useActivity } from "../../onboarding/hooks";

/** The empty state; `projectId` for the snippets' URLs and the keys link. */
export function WaitingForFirstCall({ projectId }: { projectId: string }) {
  // Only the snippets' URLs: the Requests page's own poll notices the first call.
  const activity = useActivity(projectId, { poll: false });
  return (
    <div className="flex flex-col gap-6">
      <Card>
        <div role="status" className="flex items-center gap-3">
          <span aria-hidden="true" className="relative flex h-3 w-3">
            <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-indigo-400 opacity-75 motion-reduce:animate-none" />
            <span className="relative inline-flex h-3 w-3 rounded-full bg-indigo-600" />
          </span>
          <div>
            <p className="font-semibold">Waiting for your first call…</p>
            <p className="text-sm text-zinc-700 dark:text-zinc-300">
              This page checks every few seconds and shows your calls as they arrive. Send one with an{" "}
              <Link className="text-indigo-700 underline dark:text-indigo-300" to={`/p/${projectId}/keys`}>
                API key
              </Link>{" "}
              and one of these snippets.
            </p>
          </div>
        </div>
      </Card>
      {activity.data && <Snippets api_url={activity.data.api_url} proxy_url={activity.data.proxy_url} />}
    </div>
  );
}
