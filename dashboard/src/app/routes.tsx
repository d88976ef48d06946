/**
 * Every route of the SPA, in one list. A project page is one entry of `PROJECT_PAGES` (path
 * under `/p/:projectId/`, its navigation label, its page component); the router and the
 * navigation are both built from it, so a new feature adds exactly one line here.
 * Charts' plotting code (Recharts) loads on demand, early when the address is a chart page.
 */
import type { ComponentType } from "react";
import type { RouteObject } from "react-router";
import { preloadCharts } from "../components/charts/TimeChart";
import { NotFound } from "../components/ui";
import { AcceptInvitePage } from "../features/auth/components/AcceptInvitePage";
import { SignInPage, SignUpPage } from "../features/auth/components/AuthPages";
import { HomePage } from "../features/auth/components/HomePage";
import { BillingPage } from "../features/billing/components/BillingPage";
import { KeysPage } from "../features/keys/components/KeysPage";
import { MembersPage } from "../features/members/components/MembersPage";
import { OnboardingPage } from "../features/onboarding/components/OnboardingPage";
import { OverviewPage } from "../features/overview/components/OverviewPage";
import { PolicyPage } from "../features/policy/components/PolicyPage";
import { ProjectsPage } from "../features/projects/components/ProjectsPage";
import { RequestsPage } from "../features/requests/components/RequestsPage";
import { TriagePage } from "../features/triage/components/TriagePage";
import { WebhooksPage } from "../features/webhooks/components/WebhooksPage";
import { Layout } from "./Layout";
import { RouteError } from "./RouteError";

// A chart page opened directly fetches the plotting code beside the session's projects, not after them.
if (/^\/p\/[^/]+\/(overview|safety)$/.test(window.location.pathname)) preloadCharts();

/** A page of a project: `/p/:projectId/<path>`, shown in the navigation as `label`. */
export interface ProjectPage {
  path: string;
  label: string;
  Page: ComponentType;
}

/** The project pages, in navigation order. */
export const PROJECT_PAGES: readonly ProjectPage[] = [
  { path: "start", label: "Get started", Page: OnboardingPage },
  { path: "overview", label: "Overview", Page: OverviewPage },
  { path: "requests", label: "Requests", Page: RequestsPage },
  { path: "safety", label: "Safety", Page: TriagePage },
  { path: "keys", label: "API keys", Page: KeysPage },
  { path: "webhooks", label: "Webhooks", Page: WebhooksPage },
  { path: "policy", label: "Policy", Page: PolicyPage },
  { path: "billing", label: "Billing", Page: BillingPage },
  { path: "members", label: "Members", Page: MembersPage },
  { path: "projects", label: "Projects", Page: ProjectsPage },
];

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
