/**
 * Shared pieces of every route module: the `OpenAPIHono` factory whose `defaultHook` turns a
 * validation failure into 422 `{detail}`, the error schema, common error responses, security
 * requirements and the paged list envelope (docs/interface.md section 2.6).
 */
import { createRoute, OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import { validationHook } from "../../../../src/http/validation";
import type { AppBindings } from "../env";
import type { ApiKeyScope } from "../../../../src/enums";
import { database } from "../../../../src/http/database";
import { internalAuth } from "../middleware/internal-auth";
import { jsonInput } from "../middleware/json-input";
import { keyAuth } from "../middleware/key-auth";
import { logAuth } from "../middleware/log-auth";
import { projectAuth } from "../middleware/project-auth";

/** `{"detail": "..."}`: the body of every non-2xx response (docs/decisions.md D11). */
export const ErrorSchema = z.object({ detail: z.string().openapi({ example: "invalid API key" }) }).openapi("Error");

/** A sub-app for one resource; validation errors answer 422 with the fields named (`validationHook`). */
export function createRouter() {
  return new OpenAPIHono<AppBindings>({ defaultHook: validationHook });
}

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorSchema } },
});

/** Error responses shared by the authenticated routes. */
export const commonErrors = {
  401: errorResponse("Missing, unknown, revoked or expired credentials"),
  422: errorResponse("Validation failed; `detail` names the fields"),
  503: errorResponse("The database is unavailable"),
} as const;

/** 404 response: unknown record or another project's record. */
export const notFoundResponse = { 404: errorResponse("No such record in this project") } as const;

/** Builds an error response entry for a route's `responses`. */
export { errorResponse };

/** 403 response: the API key lacks the route's scope (or, for raw personal data, the `admin` scope). */
export const forbiddenResponse = { 403: errorResponse("The API key lacks the scope this operation needs (`this API key lacks the <scope> scope`)") } as const;

/** Error responses of a route scoped to one project: `commonErrors`, 403 (scope) and 404. */
export const projectErrors = { ...commonErrors, ...forbiddenResponse, ...notFoundResponse } as const;

/** A response entry whose body is JSON matching `schema`. */
export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });

/** A request `body` entry: required JSON matching `schema`. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({ required: true, content: { "application/json": { schema } } });

/**
 * `createRoute` for the routes of one resource, whose OpenAPI tag is given once, that say who may
 * call in their own object (`access.ingest()`, `access.key()`) and list all their responses:
 * `routesTagged("ingest")("post", "/internal/log", { ...access.ingest(), ... })`. Project and
 * administration routes use `projectRoutesTagged` and `internalRoutesTagged`.
 */
export function routesTagged(tag: string) {
  return <const M extends RouteConfig["method"], const P extends string, const R extends Omit<RouteConfig, "method" | "path">>(method: M, path: P, spec: R) =>
    createRoute({ method, path, tags: [tag], ...spec });
}

/**
 * The error responses of a route's kind with the route's own `responses` (which win on a shared
 * status); typed as the intersection, which keeps each status code a literal key as Hono's typed client needs.
 */
const withErrors = <R extends RouteSpec, E extends RouteConfig["responses"]>(errors: E, spec: R) => ({ ...errors, ...spec.responses }) as E & R["responses"];

/** What a route declaration gives besides its method, path and who may call it. */
type RouteSpec = Omit<RouteConfig, "method" | "path" | "tags" | "security" | "middleware">;

/**
 * `createRoute` for the routes of one project-scoped resource (`/api/...`), whose OpenAPI tag is
 * given once: `const route = projectRoutesTagged("requests"); route("get", "/api/requests/count", "read", { summary, request, responses })`.
 * Who may call is the route's `scope` (`access.project(scope)`: an API key holding it, or the
 * internal secret with `?project_id=`), declared with the route; its `responses` join the `projectErrors`.
 * `route.list(path, request, pageOf(...), { summary })` declares a page-numbered list.
 */
export function projectRoutesTagged(tag: string) {
  const route = <const M extends RouteConfig["method"], const P extends string, const R extends RouteSpec>(method: M, path: P, scope: ApiKeyScope, spec: R) =>
    createRoute({ method, path, tags: [tag], ...spec, ...access.project(scope), responses: withErrors(projectErrors, spec) });
  /**
   * A page-numbered list (docs/interface.md section 2.6): GET with the `read` scope, whose
   * `request` carries the paging and filter fields (`query`, and `params` under a parent record),
   * answering 200 with `page`, a `pageOf` envelope:
   * `route.list("/api/sessions", { query: SessionListQuery }, pageOf(SessionSummarySchema, "SessionPage"), { summary })`.
   */
  const list = <
    const P extends string,
    const Q extends NonNullable<RouteSpec["request"]>,
    T extends z.ZodType,
    const S extends Omit<RouteSpec, "request" | "responses">,
  >(
    path: P,
    request: Q,
    page: T,
    spec: S,
  ) => route("get", path, "read", { ...spec, request, responses: { 200: jsonResponse(page, "A page of the list: `items`, `total`, `page`, `page_size`") } });
  return Object.assign(route, { list });
}

/**
 * `createRoute` for the administration routes of one resource (`/internal/...`), open to the
 * internal secret only (`access.internal()`), each route's `responses` joining the `commonErrors`.
 */
export function internalRoutesTagged(tag: string) {
  return <const M extends RouteConfig["method"], const P extends string, const R extends RouteSpec>(method: M, path: P, spec: R) =>
    createRoute({ method, path, tags: [tag], ...access.internal(), ...spec, responses: withErrors(commonErrors, spec) });
}

/**
 * Security requirement of an API key holding `scope` (issue 32): the scope is named in the
 * requirement's array, which OpenAPI 3.1 allows for any scheme ("role names", section 4.8.30),
 * as unkey and Stripe's restricted keys document theirs.
 */
export const keySecurity = (scope: ApiKeyScope): Record<string, string[]>[] => [{ ServiceKey: [scope] }, { BearerKey: [scope] }];

/** Security requirement of routes open to an API key with `scope` or to the dashboard's internal secret. */
export const projectSecurity = (scope: ApiKeyScope): Record<string, string[]>[] => [...keySecurity(scope), { InternalSecret: [] }];

/** Security requirement of the administration routes. */
export const internalSecurity: Record<string, string[]>[] = [{ InternalSecret: [] }];

/**
 * Who may call a route, attached where the route is declared (`createRoute({ ...access.x() })`):
 * each level carries both the OpenAPI `security` and the middleware that enforces it, so the
 * document cannot promise what is not checked. A route open to API keys names the scope a key
 * needs (`access.project("read")`; `API_KEY_SCOPES`, src/enums.ts); a key without it gets 403. A route without one of these is public and says
 * so in its module doc (the payment webhook, /openapi.json, /docs).
 * Order: the request's database, then authentication, then the input rule (../input.ts), then
 * the route's validators.
 */
export const access = {
  /** /api/*: an API key with `scope`, or the internal secret with `?project_id=`. */
  project: (scope: ApiKeyScope) => ({ security: projectSecurity(scope), middleware: [database(), projectAuth(scope), jsonInput()] }),
  /** POST /internal/log: as `project("ingest")`, with the key and its scope checked by the ingest statement itself. */
  ingest: () => ({ security: projectSecurity("ingest"), middleware: [database(), logAuth(), jsonInput()] }),
  /** GET /internal/keys/check: an API key with the `ingest` scope only (the key is what is asked about). */
  key: () => ({ security: keySecurity("ingest"), middleware: [database(), keyAuth("ingest")] }),
  /** /internal/projects...: the internal secret only. */
  internal: () => ({ security: internalSecurity, middleware: [database(), internalAuth(), jsonInput()] }),
};

/** The paged list envelope (docs/interface.md section 2.6). */
export function pageOf<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      items: z.array(item),
      total: z.number().int().openapi({ description: "Total count of matching records" }),
      page: z.number().int(),
      page_size: z.number().int(),
    })
    .openapi(name);
}
