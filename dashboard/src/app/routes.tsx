/**
 * Every route of the SPA, in one list. The project pages come from `PROJECT_PAGES`
 * (`project-pages.ts`), which the navigation in `Layout.tsx` is built from too.
 * Charts' plotting code (Recharts) loads on demand, early when the address is a chart page.
 */
import type { RouteObject } from "react-router";
import { preloadCharts } from "../components/charts/TimeChart";
import { NotFound } from "../components/ui";
import { AcceptInvitePage } from "../features/auth/components/AcceptInvitePage";
import { SignInPage, SignUpPage } from "../features/auth/components/AuthPages";
import { HomePage } from "../features/auth/components/HomePage";
import { Layout } from "./Layout";
import { PROJECT_PAGES } from "./project-pages";
import { RouteError } from "./RouteError";

// A chart page opened directly fetches the plotting code beside the session's projects, not after them.
if (/^\/p\/[^/]+\/(overview|safety)$/.test(window.location.pathname)) preloadCharts();

/** The router's tree: public pages, the project frame with its pages, and "not found" for the rest. */
export const ROUTES: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      { path: "/sign-in", element: <SignInPage /> },
      { path: "/sign-up", element: <SignUpPage /> },
      { path: "/invite/:invitationId", element: <AcceptInvitePage /> },
      { path: "/", element: <HomePage /> },
      {
        path: "/p/:projectId",
        element: <Layout />,
        children: [...PROJECT_PAGES.map(({ path, Page }) => ({ path, element: <Page /> })), { path: "*", element: <NotFound /> }],
      },
      {
        path: "*",
        element: (
          <main>
            <NotFound />
          </main>
        ),
      },
    ],
  },
];
