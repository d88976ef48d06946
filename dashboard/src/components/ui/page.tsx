/** Page-level pieces: the title, the loading/error state of a page's query, and "not found". */
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Alert } from "./alert";

/** Page title (the page's only h1) with an optional subtitle. */
export function PageTitle({ children, subtitle, actions }: { children: ReactNode; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-2xl font-semibold">{children}</h1>
        {subtitle && <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{subtitle}</p>}
      </div>
      {actions}
    </div>
  );
}

/**
 * A page whose query has no data yet: its title, then "Loading…" while pending or the error's
 * message once failed. Pages render it until `query.isSuccess`, which narrows `query.data`.
 */
export function QueryStatus({ query, title }: { query: { isPending: boolean; error: Error | null }; title: ReactNode }) {
  return (
    <>
      {title}
      {query.isPending ? <p>Loading…</p> : <Alert tone="error">{query.error?.message}</Alert>}
    </>
  );
}

/** "Not found": an unknown address or id, with a way back. */
export function NotFound({ what = "page", children }: { what?: string; children?: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-md flex-col gap-4 px-4 py-16">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p>This {what} does not exist, or you have no access to it.</p>
      {children}
      <Link className="text-indigo-700 underline dark:text-indigo-300" to="/">
        Go to your projects
      </Link>
    </div>
  );
}
