/**
 * Properties over every route's inputs (fast-check, in workerd, against the real database):
 * whatever the body, query string, path parameters or headers (NUL, lone surrogates, invalid
 * UTF-8, huge and deeply nested values), the API never answers 500, and every 4xx is a
 * `{"detail": "..."}` body. Run counts are bounded so the suite stays fast (about 300
 * requests in all); a failure prints the shrunk counterexample and its seed.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { HANDLED_EVENT_TYPES } from "../../src/billing/effects";
import { jsonValues } from "../setup/arbitraries";
import { api, internal, logBody, newProject } from "./helpers";
import { postWebhook, TEST_RETURN_ORIGIN } from "./stripe-helpers";

const RUNS = 25;

/** Strings with the characters PostgreSQL and HTTP stacks trip on, among ordinary ones. */
const nasty = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)), maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.constantFrom("\u0000", "\ud800", "\udfff", "a\u0000b", "\ud83d", "slk_" + "0".repeat(48), "", " ", "null", "__proto__", "2026-13-45T99:99:99Z"),
);

/** Any JSON value, nasty strings in keys and values, bounded in size. */
const json = jsonValues(nasty, { maxItems: 4, doubles: true });

/** JSON text nested `depth` levels deep, as arrays or objects. */
const deep = fc
  .tuple(fc.integer({ min: 100, max: 100_000 }), fc.boolean())
  .map(([depth, arrays]) => (arrays ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth)));

/** A request body as text: JSON of any shape, a mutated valid record, deep nesting, or garbage. */
const bodyText = (valid: Record<string, unknown>) =>
  fc.oneof(
    json.map((v) => JSON.stringify(v)),
    fc.dictionary(fc.constantFrom(...Object.keys(valid)), json, { maxKeys: 3 }).map((patch) => JSON.stringify({ ...valid, ...patch })),
    deep,
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.constantFrom("", "{", "[1,]", '{"a":1}{', "\u0000", "x".repeat(1024 * 1024 + 1)),
  );

/** A percent-encoded query component from arbitrary bytes (NUL, invalid UTF-8, separators). */
const rawComponent = fc.oneof(
  fc.uint8Array({ maxLength: 8 }).map((b) => Array.from(b, (x) => `%${x.toString(16).padStart(2, "0")}`).join("")),
  nasty.map((s) => encodeURIComponent(s.toWellFormed())),
);
const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom("model", "start", "end", "page", "page_size", "project_id", "scorer_name", "label", "min_score", "request_id", "x"),
        rawComponent,
      ),
      rawComponent,
    ),
    { maxLength: 5 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join("&"));

/** Header values a fetch client sends (printable ASCII: workerd UTF-8-encodes anything else). */
const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((u) => String.fromCharCode(u)), maxLength: 80 }),
  fc.constantFrom("slk_" + "f".repeat(48), "Bearer ", "Bearer slk_" + "0".repeat(48), "x".repeat(8192)),
);

/** Checks the contract: no 5xx except 503 (none expected here), `{detail}` on every 4xx. */
async function expectContract(res: Response, what: string) {
  const text = await res.text();
  expect(res.status, `${what} -> ${res.status} ${text.slice(0, 200)}`).toBeLessThan(500);
  if (res.status >= 400) {
    const body = JSON.parse(text) as { detail?: unknown };
    expect(typeof body.detail, `${what} -> ${text.slice(0, 200)}`).toBe("string");
  }
}

let key = "";
let projectId = "";
beforeAll(async () => {
  ({ key, projectId } = await newProject("properties"));
});

const asserted = (prop: fc.IAsyncProperty<never> | fc.IAsyncPropertyWithHooks<never>, runs = RUNS) => fc.assert(prop, { numRuns: runs });

describe("Properties: never 500, {detail} on every 4xx", () => {
  it("POST /internal/log: any body", async () => {
    await asserted(
      fc.asyncProperty(bodyText(logBody()), async (body) => {
        const res = await api("/internal/log", { method: "POST", headers: { "X-Service-Key": key, "Content-Type": "application/json" }, body });
        await expectContract(res, `log ${body.slice(0, 80)}`);
      }) as never,
      40,
    );
  });

  it("POST admin and billing routes: any body", async () => {
    const routes = [
      ["/internal/projects", { name: "p" }],
      [`/internal/projects/${projectId}/keys`, { name: "k" }],
      [`/api/billing/checkout?project_id=${projectId}`, { tier: "pro", success_url: `${TEST_RETURN_ORIGIN}/a`, cancel_url: `${TEST_RETURN_ORIGIN}/b` }],
      [`/api/billing/portal?project_id=${projectId}`, { return_url: `${TEST_RETURN_ORIGIN}/a` }],
    ] as const;
    await asserted(
      fc.asyncProperty(fc.constantFrom(...routes), fc.integer({ min: 0, max: 1_000 }), async ([path, valid], seed) => {
        const body = fc.sample(bodyText(valid), { numRuns: 1, seed })[0]!;
        const res = await api(path, { method: "POST", headers: { ...internal, "Content-Type": "application/json" }, body });
        await expectContract(res, `${path} ${body.slice(0, 80)}`);
      }) as never,
      40,
    );
  });

  it("GET list and summary routes: any query string", async () => {
    await asserted(
      fc.asyncProperty(
        fc.constantFrom("/api/requests", "/api/safety-scores", "/api/safety-scores/summary", "/api/billing/subscription", "/internal/projects"),
        queryString,
        fc.boolean(),
        async (path, query, withSecret) => {
          const headers = withSecret ? internal : { "X-Service-Key": key };
          const res = await api(`${path}?${query}`, { headers });
          await expectContract(res, `${path}?${query}`);
        },
      ) as never,
      50,
    );
  });

  it("Path parameters: any bytes", async () => {
    await asserted(
      fc.asyncProperty(rawComponent, rawComponent, fc.constantFrom("get", "keys", "revoke", "rotate", "delete"), async (a, b, route) => {
        const [method, path] = {
          get: ["GET", `/api/requests/${a}`],
          keys: ["GET", `/internal/projects/${a}/keys`],
          revoke: ["POST", `/internal/projects/${a}/keys/${b}/revoke`],
          rotate: ["POST", `/internal/projects/${a}/keys/${b}/rotate`],
          delete: ["DELETE", `/internal/projects/${a}/keys/${b}`],
        }[route] as [string, string];
        const res = await api(path, { method, headers: route === "get" ? { "X-Service-Key": key } : internal });
        await expectContract(res, `${method} ${path}`);
      }) as never,
    );
  });

  it("Headers: any credentials and content type", async () => {
    await asserted(
      fc.asyncProperty(
        fc.record(
          { "X-Service-Key": headerValue, Authorization: headerValue, "X-Internal-Secret": headerValue, "Content-Type": headerValue },
          { requiredKeys: [] },
        ),
        fc.constantFrom("/internal/log", "/api/requests", "/internal/projects", "/api/billing/checkout"),
        async (headers, path) => {
          const method = path === "/api/requests" ? "GET" : "POST";
          const res = await api(path, { method, headers, body: method === "POST" ? JSON.stringify(logBody()) : undefined });
          await expectContract(res, `${method} ${path} ${JSON.stringify(headers).slice(0, 120)}`);
        },
      ) as never,
      40,
    );
  });

  it("POST /webhook/payment: any body, signed or not", async () => {
    const types = [...HANDLED_EVENT_TYPES, "other.type"];
    const event = fc.record({
      id: fc.oneof(
        nasty,
        fc.string().map((s) => `evt_${s}`),
      ),
      type: fc.constantFrom(...types),
      created: fc.oneof(fc.integer({ min: 0, max: 2 ** 31 }), fc.constant(Math.floor(Date.now() / 1000))),
      object: fc.constant("event"),
      data: fc.oneof(
        json,
        fc.record({ object: json }),
        fc.record({
          object: fc.dictionary(
            fc.constantFrom("id", "customer", "subscription", "items", "metadata", "client_reference_id", "status", "lines", "parent"),
            json,
          ),
        }),
      ),
    });
    await asserted(
      fc.asyncProperty(
        fc.oneof(
          event.map((e) => JSON.stringify(e)),
          bodyText({ id: "evt_1", type: "invoice.paid", created: 1 }),
        ),
        fc.boolean(),
        async (body, signed) => {
          const res = signed ? await postWebhook(body) : await postWebhook(body, { header: null });
          await expectContract(res, `webhook ${body.slice(0, 120)}`);
        },
      ) as never,
      40,
    );
  });
});
