/**
 * /internal personal-data routes of the dashboard server (issue 35.1, one owner per table),
 * behind `X-Internal-Secret` (`access.internal()`): the reveal audit (`pii_reveals`, written and
 * read only by the API, src/pii/reveals.ts), which records an owner's or admin's `reveal=true`
 * before the dashboard shows a request unmasked and lists the project's reveals; and the search
 * check (`personalDataFilter`, src/pii/views.ts) that refuses a text filter holding personal
 * data to roles below admin (dashboard/server/lib/pii.ts). Who may reveal is the dashboard's
 * decision (roles); the API records and judges.
 */
import { z } from "@hono/zod-openapi";
import { FOREIGN_KEY_VIOLATION, sqlStateOf } from "../../../../src/db/driver/unavailable";
import { notFound } from "../../../../src/http/errors";
import { listReveals, MAX_REVEALS, recordReveals } from "../../../../src/pii/reveals";
import { personalDataFilter, STORED_TEXT_FIELDS, TEXT_FILTERS } from "../../../../src/pii/views";
import { createRouter, internalRoutesTagged, jsonBody, jsonResponse as json, notFoundResponse } from "./openapi";
import { instant } from "./schemas";

const ProjectParam = z.object({ project_id: z.uuid() });

/** One entry of the reveal audit (the shape of src/pii/reveal-types.ts). */
const PiiRevealSchema = z
  .object({
    id: z.uuid(),
    request_id: z.uuid(),
    actor: z.enum(["user", "key"]).openapi({ description: "`user`: a dashboard user revealed; `key`: an API key with the admin scope read raw" }),
    revealed_by: z.string().openapi({ description: "The user's email, or `key slk_1a2b…9f0e (name)` (`key <id> (deleted)` once gone)" }),
    api_key_id: z.uuid().nullable(),
    revealed_at: instant,
    fields: z.array(z.string()).openapi({ description: "What was shown unmasked" }),
  })
  .openapi("PiiReveal");

/** A dashboard user's reveal: the requests shown unmasked and who saw them. */
const NewReveal = z.object({
  request_ids: z.array(z.uuid()).min(1).max(MAX_REVEALS).openapi({ description: "The requests shown unmasked (one audit row each)" }),
  user: z.object({
    id: z.string().min(1).max(255).openapi({ description: "The dashboard user (Better Auth `auth_user.id`)" }),
    email: z.string().min(1).max(320).openapi({ description: "Their email now (kept in the audit when the account goes)" }),
  }),
});

/** A text filter's value as the dashboard received it (the API's request routes bound `q` further). */
const filterText = z.string().max(10_000).optional();
/** The text filters of a request query to judge (`TEXT_FILTERS`). */
const SearchFilters = z.object({ q: filterText, model: filterText, provider: filterText });

const route = internalRoutesTagged("internal");

const routes = {
  recordReveal: route("post", "/internal/projects/{project_id}/pii-reveals", {
    summary: "Record that a dashboard user saw requests unmasked (before they are shown)",
    description: `One audit row per request, naming the user, with the stored-text fields (${STORED_TEXT_FIELDS.join(", ")}).`,
    request: { params: ProjectParam, body: jsonBody(NewReveal) },
    responses: { 204: { description: "Recorded" }, ...notFoundResponse },
  }),
  listReveals: route("get", "/internal/projects/{project_id}/pii-reveals", {
    summary: `The project's reveals, newest first (of one request with \`request_id\`), at most ${MAX_REVEALS}`,
    request: { params: ProjectParam, query: z.object({ request_id: z.uuid().optional() }) },
    responses: { 200: json(z.object({ items: z.array(PiiRevealSchema) }), "The reveals") },
  }),
  searchCheck: route("post", "/internal/pii/search-check", {
    summary: "The first text filter (q, model, provider) in which the PII detectors find personal data, or null",
    description: "`q` is judged as PostgreSQL searches it (its lexemes), `model` and `provider` as written (src/pii/views.ts).",
    request: { body: jsonBody(SearchFilters) },
    responses: { 200: json(z.object({ filter: z.enum(TEXT_FILTERS).nullable() }), "The verdict") },
  }),
};

/** Registers the reveal audit and search check routes. */
export const piiRevealRoutes = createRouter()
  .openapi(routes.recordReveal, async (c) => {
    const { request_ids, user } = c.req.valid("json");
    try {
      await recordReveals(c.var.db, c.req.valid("param").project_id, request_ids, { user }, STORED_TEXT_FIELDS);
    } catch (err) {
      // The audit row's project foreign key refused an unknown project: nothing was written.
      if (sqlStateOf(err) === FOREIGN_KEY_VIOLATION) throw notFound("project");
      throw err;
    }
    return c.body(null, 204);
  })
  .openapi(routes.listReveals, async (c) => {
    const items = await listReveals(c.var.db, c.req.valid("param").project_id, c.req.valid("query").request_id);
    return c.json({ items }, 200);
  })
  .openapi(routes.searchCheck, async (c) => c.json({ filter: await personalDataFilter(c.var.db, c.req.valid("json")) }, 200));
