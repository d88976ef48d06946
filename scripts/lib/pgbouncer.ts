/**
 * PgBouncer in transaction pooling mode as the local stand-in for Hyperdrive's connection pool.
 * In production every Worker request opens a connection to Hyperdrive, which hands it a warm,
 * pooled connection to Postgres; locally, wrangler's Hyperdrive binding connects straight to
 * PostgreSQL, so each request forks a new backend. Putting PgBouncer between them lets the
 * benchmarks measure the production connection model on this machine.
 *
 * PgBouncer comes from Debian (`apt-get install pgbouncer`); `ensurePgBouncer` installs it when
 * it is missing and this process may (root). PgBouncer refuses to run as root, so as root it
 * runs as the `postgres` user that the embedded PostgreSQL already uses.
 * Settings: https://www.pgbouncer.org/config.html (pool_mode, auth_type, ignore_startup_parameters).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { userInfo } from "node:os";
import { join, resolve } from "node:path";
import { ROOT } from "./postgres";

/** Options of `startPgBouncer`. */
export interface PgBouncerOptions {
  /** PostgreSQL URL to pool, e.g. `postgres://postgres:postgres@127.0.0.1:25435/db`. */
  target: string;
  /** Port PgBouncer listens on (127.0.0.1). */
  port: number;
  /** Server connections per database/user pair (PgBouncer `default_pool_size`). */
  poolSize: number;
  /** Directory for its config, log and pid file. */
  dir: string;
}

/** A running PgBouncer: `url` has the target's database, user and password, on PgBouncer's port. */
export interface RunningPgBouncer {
  url: string;
  stop(): Promise<void>;
}

const which = (bin: string) => spawnSync("sh", ["-c", `command -v ${bin}`], { encoding: "utf8" }).stdout.trim();

/** Path of the pgbouncer binary, installing the Debian package if needed; null when impossible. */
export function ensurePgBouncer(): string | null {
  const found = which("pgbouncer") || (spawnSync("test", ["-x", "/usr/sbin/pgbouncer"]).status === 0 ? "/usr/sbin/pgbouncer" : "");
  if (found) return found;
  if (userInfo().uid !== 0) return null;
  const install = spawnSync("apt-get", ["install", "-y", "-q", "pgbouncer"], {
    encoding: "utf8",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (install.status !== 0) {
    spawnSync("apt-get", ["update", "-q"], { encoding: "utf8" });
    spawnSync("apt-get", ["install", "-y", "-q", "pgbouncer"], { encoding: "utf8", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  }
  return spawnSync("test", ["-x", "/usr/sbin/pgbouncer"]).status === 0 ? "/usr/sbin/pgbouncer" : null;
}

/** uid and gid of the `postgres` system user (created by the embedded PostgreSQL when root). */
function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
  const ids = { uid: id("-u"), gid: id("-g") };
  if (!Number.isInteger(ids.uid) || ids.uid <= 0) throw new Error("no `postgres` user to run pgbouncer as");
  return ids;
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode})`);
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, "127.0.0.1", () => (socket.end(), done(true)));
      socket.on("error", () => done(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`pgbouncer did not listen on ${port} within ${timeoutMs} ms`);
}

/**
 * Starts PgBouncer in front of `opts.target` with `pool_mode = transaction` (what Hyperdrive
 * does: a server connection is held only for the length of a transaction). Throws when the
 * binary is unavailable.
 */
export async function startPgBouncer(opts: PgBouncerOptions): Promise<RunningPgBouncer> {
  const bin = ensurePgBouncer();
  if (!bin) throw new Error("pgbouncer is not installed (apt-get install pgbouncer)");
  const target = new URL(opts.target);
  const dir = resolve(ROOT, opts.dir);
  mkdirSync(dir, { recursive: true });
  const user = decodeURIComponent(target.username);
  const password = decodeURIComponent(target.password);
  writeFileSync(join(dir, "userlist.txt"), `"${user}" "${password}"\n`);
  writeFileSync(
    join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${target.hostname} port=${target.port}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${opts.port}`,
      "unix_socket_dir =",
      "auth_type = plain",
      `auth_file = ${join(dir, "userlist.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${opts.poolSize}`,
      "max_client_conn = 2000",
      // pg and drizzle send these at startup; PgBouncer must not refuse them.
      "ignore_startup_parameters = extra_float_digits,options",
      `logfile = ${join(dir, "pgbouncer.log")}`,
      "",
    ].join("\n"),
  );
  const asRoot = userInfo().uid === 0;
  if (asRoot) chmodSync(dir, 0o777);
  const child = spawn(bin, [join(dir, "pgbouncer.ini")], { stdio: "ignore", ...(asRoot ? postgresUser() : {}) });
  await waitForPort(opts.port, child, 10_000);
  const url = new URL(opts.target);
  url.port = String(opts.port);
  return {
    url: url.toString(),
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM"); // immediate shutdown (SIGINT would wait for clients)
      }),
  };
}
