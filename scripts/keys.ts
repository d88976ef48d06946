/**
 * `npm run keys -- <command>`: operator CLI for projects and API keys. Wraps the API's
 * /internal routes (X-Internal-Secret), so it works against any deployment.
 *
 *   projects                          list projects
 *   create-project <name>             create a project (free tier)
 *   list <project_id>                 list a project's keys (hints only)
 *   create <project_id> [name]        create a key; the full value is printed once
 *                                     (--scopes ingest,read,admin: what it may do; default all three)
 *   revoke <project_id> <key_id>      refuse the key at once
 *   rotate <project_id> <key_id>      new key now; the old one stops working in 60 s
 *   delete <project_id> <key_id>      delete the key
 *
 * Options: --scopes LIST (create only; docs/interface.md section 5.2), --api URL (default $SIGHTLINE_API_URL or http://localhost:8787). The secret comes
 * from $INTERNAL_API_SECRET or .dev.vars.
 */
import { parseArgs } from "node:util";
import { readDevVars } from "./lib/dev-vars";

const USAGE = `usage: npm run keys -- <projects | create-project NAME | list PROJECT | create PROJECT [NAME] [--scopes ingest,read,admin] |
                          revoke PROJECT KEY | rotate PROJECT KEY | delete PROJECT KEY> [--api URL]`;

const { values, positionals } = parseArgs({
  options: { api: { type: "string" }, scopes: { type: "string" }, help: { type: "boolean", short: "h" } },
  allowPositionals: true,
});
const api = (values.api ?? process.env.SIGHTLINE_API_URL ?? "http://localhost:8787").replace(/\/$/, "");
const secret = process.env.INTERNAL_API_SECRET ?? readDevVars().INTERNAL_API_SECRET;
const [command, a, b] = positionals;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(api + path, {
      method,
      headers: { "X-Internal-Secret": secret ?? "", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    fail(`cannot reach ${api}: ${(err as Error).message} (is \`npm run dev\` running?)`);
  }
  if (res.status === 204) return null;
  const json = (await res.json().catch(() => ({}))) as { detail?: string };
  if (!res.ok) fail(`${res.status}: ${json.detail ?? res.statusText}`);
  return json;
}

const need = (v: string | undefined, what: string) => v ?? fail(`missing ${what}\n${USAGE}`);
type Key = {
  id: string;
  name: string;
  key_hint: string;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  key?: string;
};
const showKey = (k: Key) =>
  `${k.id}  ${k.key_hint}  ${k.name}  [${k.scopes.join(",")}]${k.revoked_at ? "  revoked" : k.expires_at ? `  expires ${k.expires_at}` : ""}`;

if (values.help || !command) {
  console.log(USAGE);
  process.exit(command ? 0 : 1);
}
if (!secret) fail("no internal secret: set INTERNAL_API_SECRET or run `npm run dev` once to create .dev.vars");

switch (command) {
  case "projects": {
    const { items } = (await call("GET", "/internal/projects")) as { items: { id: string; name: string; created_at: string }[] };
    for (const p of items) console.log(`${p.id}  ${p.name}  ${p.created_at}`);
    break;
  }
  case "create-project": {
    const p = (await call("POST", "/internal/projects", { name: need(a, "NAME") })) as { id: string; name: string };
    console.log(`project ${p.id} (${p.name}) created`);
    break;
  }
  case "list": {
    const { items } = (await call("GET", `/internal/projects/${need(a, "PROJECT")}/keys`)) as { items: Key[] };
    for (const k of items) console.log(showKey(k));
    break;
  }
  case "create": {
    const scopes = values.scopes?.split(",").map((s) => s.trim());
    const k = (await call("POST", `/internal/projects/${need(a, "PROJECT")}/keys`, { name: b ?? "default", scopes })) as Key;
    console.log(`key ${k.id} [${k.scopes.join(",")}] created; shown once, store it now:\n\n  ${k.key}\n`);
    break;
  }
  case "revoke": {
    const k = (await call("POST", `/internal/projects/${need(a, "PROJECT")}/keys/${need(b, "KEY")}/revoke`)) as Key;
    console.log(`revoked: ${showKey(k)}`);
    break;
  }
  case "rotate": {
    const r = (await call("POST", `/internal/projects/${need(a, "PROJECT")}/keys/${need(b, "KEY")}/rotate`)) as { key: Key; previous: Key };
    console.log(`new key ${r.key.id}; shown once, store it now:\n\n  ${r.key.key}\n\nold key ${r.previous.id} stops working at ${r.previous.expires_at}`);
    break;
  }
  case "delete":
    await call("DELETE", `/internal/projects/${need(a, "PROJECT")}/keys/${need(b, "KEY")}`);
    console.log(`deleted ${b}`);
    break;
  default:
    fail(`unknown command ${command}\n${USAGE}`);
}
