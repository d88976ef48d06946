/**
 * The project pages, in one list: each is a path under `/p/:projectId/`, its navigation label
 * and its page component. The router (`routes.tsx`) and the frame's navigation (`Layout.tsx`)
 * are both built from it, so a new feature adds exactly one line here.
 */
import type { ComponentType } from "react";
import { BillingPage } from "../features/billing/components/BillingPage";
import { KeysPage } from "../features/keys/components/KeysPage";
import { MembersPage } from "../features/members/components/MembersPage";
import { OnboardingPage } from "../features/onboarding/components/OnboardingPage";
import { OverviewPage } from "../features/overview/components/OverviewPage";
import { PolicyPage } from "../features/policy/components/PolicyPage";
import { ProjectsPage } from "../features/projects/components/ProjectsPage";
import { RequestsPage } from "../features/requests/components/RequestsPage";
import { SessionsPage } from "../features/sessions/components/SessionsPage";
import { TriagePage } from "../features/triage/components/TriagePage";
import { WebhooksPage } from "../features/webhooks/components/WebhooksPage";

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
  { path: "sessions", label: "Sessions", Page: SessionsPage },
  { path: "safety", label: "Safety", Page: TriagePage },
  { path: "keys", label: "API keys", Page: KeysPage },
  { path: "webhooks", label: "Webhooks", Page: WebhooksPage },
  { path: "policy", label: "Policy", Page: PolicyPage },
  { path: "billing", label: "Billing", Page: BillingPage },
  { path: "members", label: "Members", Page: MembersPage },
  { path: "projects", label: "Projects", Page: ProjectsPage },
];
