/**
 * `npm run dev`: the whole stack on this machine.
 * 1. PostgreSQL: embedded (data in .data/pg) unless DATABASE_URL is set; migrations applied.
 * 2. First start: a demo project and API key, printed once.
 * 3. `wrangler dev` for the API + scorer workers (API on :8787; one session so the
 *    scoring-jobs queue connects producer and consumer) and for the proxy (:8080, reaching
 *    the API through the local dev registry).
 * Ctrl-C stops the workers, then the database.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { ROOT } from "./lib/postgres";
import { ensureInternalSecret } from "./lib/dev-vars";
import { seedDemoProject, startDatabase } from "./lib/stack";

const API_PORT = Number(process.env.SIGHTLINE_API_PORT ?? 8787);
const PROXY_PORT = Number(process.env.SIGHTLINE_PROXY_PORT ?? 8080);

const db = await startDatabase();
console.log(`▶ PostgreSQL ready (${db.embedded ? "embedded, data in .data/pg" : "DATABASE_URL"})`);
const secret = ensureInternalSecret();
const demo = await seedDemoProject(db.url);
if (demo) {
  console.log("\n  Demo project created. Its API key is shown this once; store it now:\n");
  console.log(`    SERVICE_API_KEY=${demo.key}\n`);
  console.log(`  project id: ${demo.projectId}   (more keys: npm run keys -- create ${demo.projectId})\n`);
}

const env = {
  ...process.env,
  INTERNAL_API_SECRET: secret,
  CLOUDFLARE_HYPERDRIVE_LOCAL_CONNECTION_STRING_HYPERDRIVE: db.url,
  // Workers must not see DATABASE_URL (it would switch them to the Neon driver).
  DATABASE_URL: "",
};
const children: ChildProcess[] = [];
const run = (args: string[]) => {
  const child = spawn("wrangler", args, { cwd: ROOT, env, stdio: ["ignore", "inherit", "inherit"] });
  children.push(child);
  child.on("exit", (code, signal) => {
    if (!stopping) {
      console.error(`wrangler ${args.join(" ")} exited (${signal ?? code}); stopping the stack`);
      void stop(1);
    }
  });
  return child;
};

const varArgs = process.env.UPSTREAM_BASE_URL ? ["--var", `UPSTREAM_BASE_URL:${process.env.UPSTREAM_BASE_URL}`] : [];
run(["dev", "-c", "wrangler.toml", "-c", "workers/scorer/wrangler.toml", "--port", String(API_PORT), "--ip", "127.0.0.1", "--show-interactive-dev-session=false"]);
run(["dev", "-c", "workers/proxy/wrangler.toml", "--port", String(PROXY_PORT), "--ip", "127.0.0.1", "--show-interactive-dev-session=false", ...varArgs]);
console.log(`▶ API http://localhost:${API_PORT}  (docs: /docs)   proxy http://localhost:${PROXY_PORT}/v1   Ctrl-C to stop`);

let stopping = false;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((done) => {
          if (c.exitCode !== null || c.signalCode !== null) return done();
          c.once("exit", () => done());
          c.kill("SIGINT");
          setTimeout(() => c.kill("SIGKILL"), 5_000).unref();
        }),
    ),
  );
  await db.stop().catch(() => {});
  console.log("▶ stopped");
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
