/** The dashboard SPA: router, TanStack Query client, pages. */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { Layout } from "./components/Layout";
import { RequestError } from "./lib/api";
import { AcceptInvite } from "./pages/AcceptInvite";
import { SignIn, SignUp } from "./pages/AuthForm";
import { Billing } from "./pages/Billing";
import { Home } from "./pages/Home";
import { Keys } from "./pages/Keys";
import { Members } from "./pages/Members";
import { Onboarding } from "./pages/Onboarding";
import { Overview } from "./pages/Overview";
import { Requests } from "./pages/Requests";
import { Triage } from "./pages/Triage";
import { PolicyPage } from "./features/policy/PolicyPage";
import { WebhooksPage } from "./features/webhooks/WebhooksPage";
import "./styles.css";

const queryClient = new QueryClient({
  defaultOptions: {
    // A refusal (4xx) will not change on retry; a network blip may.
    queries: { retry: (n, e) => !(e instanceof RequestError && e.status < 500) && n < 2 },
  },
});

const router = createBrowserRouter([
  { path: "/sign-in", element: <SignIn /> },
  { path: "/sign-up", element: <SignUp /> },
  { path: "/invite/:invitationId", element: <AcceptInvite /> },
  { path: "/", element: <Home /> },
  {
    path: "/p/:projectId",
    element: <Layout />,
    children: [
      { path: "start", element: <Onboarding /> },
      { path: "overview", element: <Overview /> },
      { path: "requests", element: <Requests /> },
      { path: "safety", element: <Triage /> },
      { path: "keys", element: <Keys /> },
      { path: "webhooks", element: <WebhooksPage /> },
      { path: "policy", element: <PolicyPage /> },
      { path: "billing", element: <Billing /> },
      { path: "members", element: <Members /> },
    ],
  },
]);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
