/**
 * GET and PUT /api/policy (docs/policy.md): the project's scoring and storage policy. The project
 * is the API key's (or `?project_id=` with the dashboard's internal secret). PUT replaces the
 * whole policy; a scorer or field left out takes its default; unknown scorers, fields or values
 * answer 422 naming them. The policy applies to calls scored from then on (src/policy/apply.ts).
 */
import type { Db } from "../../../../src/db/driver/client";
import { judgeCallsUsed } from "../../../../src/db/judge-usage";
import { getPolicy, putPolicy, type StoredPolicy } from "../../../../src/db/policies";
import { completePolicy, PolicyInputSchema, PolicySchema } from "../../../../src/policy/schema";
import { createRouter, jsonBody, jsonResponse, projectRoutesTagged } from "./openapi";
import { ProjectIdQuery } from "./queries";

const route = projectRoutesTagged("policy");

const getRoute = route("get", "/api/policy", "read", {
  summary: "The project's policy: per scorer enabled and unsafe_at, the pii_detection allow list, store_pii, the guard-model judge and its monthly budget",
  request: { query: ProjectIdQuery },
  responses: { 200: jsonResponse(PolicySchema, "The policy in force (defaults when never set: version 0)") },
});

const putRoute = route("put", "/api/policy", "admin", {
  summary: "Replace the project's policy",
  description:
    'Scorers and fields left out take their defaults (enabled, unsafe_at 4, no allow list, store_pii "keep", judge "off", judge_monthly_budget 1000). Applies to calls scored from now on; stored scores keep the policy they were made under until re-scored (POST /api/rescore).',
  request: { query: ProjectIdQuery, body: jsonBody(PolicyInputSchema) },
  responses: { 200: jsonResponse(PolicySchema, "The stored policy, with its new version") },
});

/** The policy as answered, with this month's guard-model calls. */
const answer = async (db: Db, projectId: string, p: StoredPolicy) => ({
  ...p.policy,
  judge_calls_this_month: await judgeCallsUsed(db, projectId),
  version: p.version,
  updated_at: p.updated_at?.toISOString() ?? null,
});

/** Registers GET and PUT /api/policy. */
export const policyRoutes = createRouter()
  .openapi(getRoute, async (c) => c.json(await answer(c.var.db, c.var.projectId, await getPolicy(c.var.db, c.var.projectId)), 200))
  .openapi(putRoute, async (c) =>
    c.json(await answer(c.var.db, c.var.projectId, await putPolicy(c.var.db, c.var.projectId, completePolicy(c.req.valid("json")))), 200),
  );
