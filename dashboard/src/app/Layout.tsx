/**
 * The signed-in frame: header with the project switcher, the project pages' links (from
 * `PROJECT_PAGES`), theme toggle and sign out; the page below. Redirects to sign-in without a
 * session; a project the user cannot open shows "not found".
 */
import { useQueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { NavLink, Outlet, useNavigate, useParams } from "react-router";
import { Button, cn, NotFound, Select } from "../components/ui";
import { useProjects } from "../features/projects/hooks";
import { RequestError } from "../lib/api";
import { authClient } from "../lib/auth-client";
import { PROJECT_PAGES } from "./project-pages";

function ThemeToggle() {
  const toggle = () => {
    const dark = document.documentElement.classList.toggle("dark");
    localStorage.setItem("theme", dark ? "dark" : "light");
  };
  return (
    <Button variant="ghost" onClick={toggle} aria-label="Toggle dark mode">
      ◐
    </Button>
  );
}

const link = ({ isActive }: { isActive: boolean }) =>
  cn("rounded-md px-2 py-1 text-sm", isActive ? "bg-zinc-200 font-medium dark:bg-zinc-800" : "hover:bg-zinc-100 dark:hover:bg-zinc-900");

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
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-3 px-4 pt-3">
          <span className="text-lg font-semibold">Sightline</span>
          <Select
            id="project-switcher"
            label="Project"
            hideLabel
            className="py-1"
            value={projectId ?? ""}
            onChange={(e) => void navigate(`/p/${e.target.value}/requests`)}
            options={items.map((p) => ({ value: p.id, label: `${p.organization_name} / ${p.name}` }))}
          />
          <div className="ml-auto flex items-center gap-2">
            <span className="text-sm text-zinc-600 dark:text-zinc-400">{projects.data?.user.email}</span>
            <ThemeToggle />
            <Button variant="secondary" onClick={() => void signOut()}>
              Sign out
            </Button>
          </div>
        </div>
        <div className="mx-auto max-w-7xl px-4 py-2">
          {current && (
            <nav aria-label="Project pages" className="flex flex-wrap gap-1">
              {PROJECT_PAGES.map(({ path, label }) => (
                <NavLink key={path} to={`/p/${current.id}/${path}`} className={link}>
                  {label}
                </NavLink>
              ))}
            </nav>
          )}
        </div>
      </header>
      <main className="mx-auto max-w-7xl px-4 py-8">
        {projects.isPending ? (
          <p>Loading…</p>
        ) : projectId && !current ? (
          <NotFound what="project">
            <p role="alert">Project not found. Pick one of yours in the switcher.</p>
          </NotFound>
        ) : (
          <Suspense fallback={<p>Loading…</p>}>
            <Outlet />
          </Suspense>
        )}
      </main>
    </div>
  );
}
