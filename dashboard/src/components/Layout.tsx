/**
 * The signed-in frame: header with the project switcher, page links, theme toggle and sign
 * out; the page below. Redirects to sign-in without a session.
 */
import { useQueryClient } from "@tanstack/react-query";
import { NavLink, Outlet, useNavigate, useParams } from "react-router";
import { RequestError } from "../lib/api";
import { authClient } from "../lib/auth-client";
import { useProjects } from "../lib/projects";
import { Button } from "./ui";

function ThemeToggle() {
  const toggle = () => {
    const dark = document.documentElement.classList.toggle("dark");
    localStorage.setItem("theme", dark ? "dark" : "light");
  };
  return (
    <Button variant="ghost" type="button" onClick={toggle} aria-label="Toggle dark mode">
      ◐
    </Button>
  );
}

const link = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-2 py-1 text-sm ${isActive ? "bg-zinc-200 font-medium dark:bg-zinc-800" : "hover:bg-zinc-100 dark:hover:bg-zinc-900"}`;

/** The project pages of the navigation, in order: path below `/p/:projectId/`, then label. */
const PROJECT_PAGES = [
  ["start", "Get started"],
  ["overview", "Overview"],
  ["requests", "Requests"],
  ["safety", "Safety"],
  ["keys", "API keys"],
  ["webhooks", "Webhooks"],
  ["policy", "Policy"],
  ["billing", "Billing"],
  ["members", "Members"],
] as const;

/** The frame of every project page. */
export function Layout() {
  const { projectId } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const projects = useProjects();
  if (projects.error instanceof RequestError && projects.error.status === 401) {
    void navigate("/sign-in", { replace: true });
    return null;
  }
  const items = projects.data?.items ?? [];
  const current = items.find((p) => p.id === projectId);
  const signOut = async () => {
    await authClient.signOut();
    queryClient.clear();
    await navigate("/sign-in");
  };
  return (
    <div className="min-h-screen">
      <header className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-3 px-4 py-3">
          <span className="text-lg font-semibold">Sightline</span>
          <label htmlFor="project-switcher" className="sr-only">
            Project
          </label>
          <select
            id="project-switcher"
            className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
            value={projectId ?? ""}
            onChange={(e) => void navigate(`/p/${e.target.value}/keys`)}
          >
            {items.map((p) => (
              <option key={p.id} value={p.id}>
                {p.organization_name} / {p.name}
              </option>
            ))}
          </select>
          {current && (
            <nav aria-label="Project pages" className="flex gap-1">
              {PROJECT_PAGES.map(([path, label]) => (
                <NavLink key={path} to={`/p/${current.id}/${path}`} className={link}>
                  {label}
                </NavLink>
              ))}
            </nav>
          )}
          <div className="ml-auto flex items-center gap-2">
            <span className="text-sm text-zinc-600 dark:text-zinc-400">{projects.data?.user.email}</span>
            <ThemeToggle />
            <Button variant="secondary" type="button" onClick={() => void signOut()}>
              Sign out
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-8">
        {projects.isPending ? <p>Loading…</p> : projectId && !current ? <p role="alert">Project not found. Pick one of yours in the switcher.</p> : <Outlet />}
      </main>
    </div>
  );
}
