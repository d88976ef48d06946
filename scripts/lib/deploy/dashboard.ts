/**
 * The dashboard as a deployable: dashboard/ (a Pages project, branch `dashboard`) built to
 * dashboard/dist with its own `npm run build`, and published with `wrangler pages deploy`.
 * Absent until that branch is merged: then every function here reports that there is none.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../postgres";
import { parseJson, wranglerOk } from "./wrangler-cli";

/** Name of the Pages project (SIGHTLINE_PAGES_PROJECT, default sightline-dashboard). */
export const pagesProject = (): string => process.env.SIGHTLINE_PAGES_PROJECT || "sightline-dashboard";
const DIR = join(ROOT, "dashboard");

/** Whether this checkout has a dashboard to deploy. */
export const hasDashboard = (): boolean => existsSync(join(DIR, "package.json"));

/** Builds dashboard/dist (its `npm run build`, told the API's URL); returns the directory. */
export function buildDashboard(apiUrl: string): string {
  const run = spawnSync("npm", ["run", "build"], {
    cwd: DIR,
    stdio: "inherit",
    env: { ...process.env, SIGHTLINE_API_URL: apiUrl, VITE_SIGHTLINE_API_URL: apiUrl },
  });
  if (run.status !== 0) throw new Error(`dashboard: npm run build failed (${run.status})`);
  const dist = join(DIR, "dist");
  if (!existsSync(dist)) throw new Error("dashboard: npm run build made no dashboard/dist");
  return dist;
}

/** Creates the Pages project when missing, publishes `dist`; returns the printed URL, if any. */
export async function deployDashboard(dist: string, log: (line: string) => void): Promise<string | undefined> {
  const name = pagesProject();
  const projects = parseJson<{ "Project Name": string }[]>((await wranglerOk(["pages", "project", "list", "--json"])).stdout);
  if (!projects.some((p) => p["Project Name"] === name)) {
    await wranglerOk(["pages", "project", "create", name, "--production-branch", "main"]);
    log(`  created Pages project ${name}`);
  }
  const out = await wranglerOk(["pages", "deploy", dist, "--project-name", name, "--branch", "main", "--commit-dirty=true"]);
  return /(https:\/\/\S+\.pages\.dev)/.exec(out.stdout)?.[1];
}
