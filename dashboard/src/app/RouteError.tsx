/** What a route shows when rendering it failed: a plain page, never React Router's developer page. */
import { isRouteErrorResponse, useRouteError } from "react-router";
import { NotFound } from "../components/ui";

/** The router's `errorElement`. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404)
    return (
      <main>
        <NotFound />
      </main>
    );
  return (
    <main className="mx-auto flex max-w-md flex-col gap-4 px-4 py-16">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p role="alert">{error instanceof Error ? error.message : "This page could not be shown."}</p>
      <a className="text-indigo-700 underline dark:text-indigo-300" href="/">
        Reload the dashboard
      </a>
    </main>
  );
}
