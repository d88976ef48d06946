/** The dashboard SPA's entry: TanStack Query client and the router over `app/routes.tsx`. */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { ROUTES } from "./app/routes";
import { RequestError } from "./lib/api";
import "./styles.css";

const queryClient = new QueryClient({
  defaultOptions: {
    // A refusal (4xx) will not change on retry; a network blip may.
    queries: { retry: (n, e) => !(e instanceof RequestError && e.status < 500) && n < 2 },
  },
});

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={createBrowserRouter(ROUTES)} />
    </QueryClientProvider>
  </StrictMode>,
);
