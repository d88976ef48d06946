#!/usr/bin/env node
/**
 * A stand-in for the `wrangler` commands `npm run deploy` runs against a Cloudflare account,
 * for tests (the account is the one remote service not reachable here). It records each call
 * (argv, and whether stdin carried data: never its value) as a JSON line in
 * $FAKE_WRANGLER_LOG, keeps the account (queues, Hyperdrive configs, R2 buckets, workers and
 * their secrets, Pages projects) in $FAKE_WRANGLER_STATE, and answers in wrangler 4's own
 * output formats (node_modules/wrangler/wrangler-dist/cli.js: whoami --json via logger.json,
 * `queues list` / `hyperdrive list` via logger.table (cli-table3 box drawing), `r2 bucket
 * list` via formatLabelledValues, `secret list` JSON, deploy's "Deployed <name> triggers"
 * block). Like the real service it refuses a deploy whose bindings name a missing queue or
 * Hyperdrive config, a service binding to a worker not deployed, or a new worker without its
 * required secrets. Commands that touch no account (`deploy --dry-run`, `check startup`)
 * run the real wrangler ($FAKE_WRANGLER_REAL). Anything else exits 2, so a new call shows up.
 */
import { spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";

const argv = process.argv.slice(2);
const stateFile = process.env.FAKE_WRANGLER_STATE;
const state = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, "utf8")) : {};
state.loggedIn ??= true;
state.accounts ??= [{ id: "8c2c0a6fb9cf4d0c8e2f4b6d1a3e5f70", name: "Example Org" }];
state.queues ??= [];
state.hyperdrive ??= [];
state.buckets ??= [];
state.workers ??= {};
state.pages ??= [];
state.subdomain ??= "example-org";
const stdin = process.stdin.isTTY ? "" : readFileSync(0, "utf8");
appendFileSync(process.env.FAKE_WRANGLER_LOG, JSON.stringify({ argv, stdin: stdin.length > 0 }) + "\n");

const save = () => writeFileSync(stateFile, JSON.stringify(state, null, 2));
const out = (text) => process.stdout.write(text.endsWith("\n") ? text : text + "\n");
const fail = (text, code = 1) => {
  process.stderr.write(`\n✘ [ERROR] ${text}\n\n`);
  process.exit(code);
};
const banner = () => out(" ⛅️ wrangler 4.164.0\n───────────────────");
const flag = (name) => {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  return argv[i].includes("=") ? argv[i].slice(name.length + 1) : argv[i + 1];
};
/** The config passed with -c, read as wrangler reads JSONC (line comments allowed). */
const config = () => {
  const path = flag("-c") ?? flag("--config");
  const text = readFileSync(path, "utf8").replace(/^\s*\/\/.*$/gm, "");
  return JSON.parse(text);
};
/** cli-table3's default rendering (as logger.table prints with colours off). */
const table = (rows) => {
  if (rows.length === 0) return "";
  const head = Object.keys(rows[0]);
  const cells = [head, ...rows.map((r) => head.map((h) => String(r[h] ?? "")))];
  const widths = head.map((_, i) => Math.max(...cells.map((c) => c[i].length)) + 2);
  const line = (l, m, r) => l + widths.map((w) => "─".repeat(w)).join(m) + r;
  const row = (c) => "│" + c.map((v, i) => ` ${v}`.padEnd(widths[i])).join("│") + "│";
  return [line("┌", "┬", "┐"), ...cells.flatMap((c, i) => (i === 0 ? [row(c)] : [line("├", "┼", "┤"), row(c)])), line("└", "┴", "┘")].join("\n");
};
const real = () => {
  const r = spawnSync(process.env.FAKE_WRANGLER_REAL, argv, { stdio: "inherit" });
  process.exit(r.status ?? 1);
};

const [a, b, c] = argv;
if (a === "check" && b === "startup") real();
if (a === "deploy" && argv.includes("--dry-run")) real();
if (a !== "whoami" && !state.loggedIn) fail("Not logged in. Run `wrangler login`.");

if (a === "whoami") {
  if (!state.loggedIn) {
    out(JSON.stringify({ loggedIn: false }, null, 2));
    process.exit(1);
  }
  out(
    JSON.stringify(
      { loggedIn: true, authType: "OAuth Token", email: "ops@example.com", accounts: state.accounts, tokenPermissions: ["workers_scripts:write"] },
      null,
      2,
    ),
  );
} else if (a === "queues" && b === "list") {
  banner();
  out(table(state.queues.map((q) => ({ id: q.id, name: q.name, created_on: q.created_on, modified_on: q.created_on, producers: "0", consumers: "0" }))));
} else if (a === "queues" && b === "create") {
  banner();
  if (state.queues.some((q) => q.name === c))
    fail(`A request to the Cloudflare API (/accounts/${state.accounts[0].id}/queues) failed.\n\n  Queue name already taken [code: 11009]`);
  state.queues.push({ id: randomBytes(16).toString("hex"), name: c, created_on: new Date().toISOString() });
  save();
  out(`🌀 Creating queue '${c}'\n✅ Created queue '${c}'`);
} else if (a === "hyperdrive" && b === "list") {
  banner();
  out("📋 Listing Hyperdrive configs");
  out(
    table(
      state.hyperdrive.map((h) => ({
        id: h.id,
        name: h.name,
        user: h.origin.user,
        host: h.origin.host,
        port: h.origin.port,
        scheme: "PostgreSQL",
        database: h.origin.database,
        caching: "enabled",
        mtls: "",
        origin_connection_limit: "",
      })),
    ),
  );
} else if (a === "hyperdrive" && b === "create") {
  banner();
  const url = new URL(flag("--connection-string"));
  if (state.hyperdrive.some((h) => h.name === c)) fail(`A config with the name "${c}" already exists [code: 2017]`);
  const id = randomBytes(16).toString("hex");
  // Like the service, it keeps the origin without the password.
  state.hyperdrive.push({
    id,
    name: c,
    origin: { host: url.hostname, port: url.port || "5432", database: url.pathname.slice(1), user: decodeURIComponent(url.username) },
  });
  save();
  out(`🚧 Creating '${c}'\n✅ Created new Hyperdrive PostgreSQL config: ${id}`);
} else if (a === "r2" && b === "bucket" && c === "list") {
  banner();
  out("Listing buckets...");
  out(state.buckets.map((x) => `name:           ${x.name}\ncreation_date:  ${x.created}`).join("\n\n"));
} else if (a === "r2" && b === "bucket" && c === "create") {
  banner();
  const name = argv[3];
  state.buckets.push({ name, created: new Date().toISOString() });
  save();
  out(`Creating bucket '${name}'...\n✅ Created bucket '${name}' with default storage class of Standard.`);
} else if (a === "secret" && b === "list") {
  const name = config().name;
  const worker = state.workers[name];
  // wrangler turns the API's 10007 into this UserError (secretListCommand).
  if (!worker)
    fail(
      `Worker "${name}" not found.\n\nIf this is a new Worker, run \`wrangler deploy\` first to create it.\nOtherwise, check that the Worker name is correct and you're logged into the right account.`,
    );
  out(
    JSON.stringify(
      Object.keys(worker.secrets).map((n) => ({ name: n, type: "secret_text" })),
      null,
      "  ",
    ),
  );
} else if (a === "secret" && b === "put") {
  banner();
  const name = config().name;
  if (!state.workers[name]) fail(`This Worker does not exist on your account. [code: 10007]`);
  if (!stdin) fail("secret put needs the value on stdin here");
  state.workers[name].secrets[c] = createHash("sha256").update(stdin.replace(/\n$/, "")).digest("hex");
  save();
  out(`🌀 Creating the secret for the Worker "${name}"\n✨ Success! Uploaded secret ${c}`);
} else if (a === "deploy") {
  banner();
  const cfg = config();
  for (const h of cfg.hyperdrive ?? [])
    if (!state.hyperdrive.some((x) => x.id === h.id)) fail(`A request to the Cloudflare API failed.\n\n  Hyperdrive config ${h.id} not found [code: 2003]`);
  for (const q of [...(cfg.queues?.producers ?? []), ...(cfg.queues?.consumers ?? [])])
    if (!state.queues.some((x) => x.name === q.queue)) fail(`Queue "${q.queue}" does not exist. To create it, run: wrangler queues create ${q.queue}`);
  for (const q of cfg.queues?.consumers ?? [])
    if (q.dead_letter_queue && !state.queues.some((x) => x.name === q.dead_letter_queue)) fail(`Queue "${q.dead_letter_queue}" does not exist.`);
  for (const s of cfg.services ?? [])
    if (!state.workers[s.service]) fail(`Could not resolve service binding '${s.binding}'. Target script '${s.service}' not found. [code: 10143]`);
  const secretsFile = flag("--secrets-file");
  const given = secretsFile ? JSON.parse(readFileSync(secretsFile, "utf8")) : {};
  const existing = state.workers[cfg.name];
  const have = new Set([...Object.keys(existing?.secrets ?? {}), ...Object.keys(given)]);
  const missing = (cfg.secrets?.required ?? []).filter((s) => !have.has(s));
  if (missing.length && !existing)
    fail(
      `The following required secrets have not been set: ${missing.join(", ")}\nThis Worker does not exist yet, so secrets cannot be set in advance with \`wrangler secret put\`.`,
    );
  const worker = (state.workers[cfg.name] ??= { secrets: {}, deployments: 0 });
  for (const [k, v] of Object.entries(given)) worker.secrets[k] = createHash("sha256").update(String(v)).digest("hex");
  worker.deployments += 1;
  worker.vars = cfg.vars ?? {};
  save();
  out("Total Upload: 1234.56 KiB / gzip: 321.00 KiB\nWorker Startup Time: 21 ms");
  out(`Uploaded ${cfg.name} (2.10 sec)`);
  out(`Deployed ${cfg.name} triggers (0.61 sec)`);
  out(`  https://${cfg.name}.${state.subdomain}.workers.dev`);
  for (const cron of cfg.triggers?.crons ?? []) out(`  schedule: ${cron}`);
  for (const q of cfg.queues?.producers ?? []) out(`  Producer for ${q.queue}`);
  for (const q of cfg.queues?.consumers ?? []) out(`  Consumer for ${q.queue}`);
  out(`Current Version ID: ${randomUUID()}`);
} else if (a === "pages" && b === "project" && c === "list") {
  out(
    JSON.stringify(
      state.pages.map((p) => ({ "Project Name": p, "Project Domains": `${p}.pages.dev`, "Git Provider": "No", "Last Modified": "1 minute ago" })),
      null,
      2,
    ),
  );
} else if (a === "pages" && b === "project" && c === "create") {
  state.pages.push(argv[3]);
  save();
  out(`✨ Successfully created the '${argv[3]}' project. It will be available at https://${argv[3]}.pages.dev/ once you create your first deployment.`);
} else if (a === "pages" && b === "deploy") {
  const name = flag("--project-name");
  out(`✨ Deployment complete! Take a peek over at https://${randomBytes(4).toString("hex")}.${name}.pages.dev`);
} else {
  fail(`fake wrangler: unsupported command ${argv.join(" ")}`, 2);
}
