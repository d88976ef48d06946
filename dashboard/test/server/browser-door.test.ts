/**
 * The browser's door (dashboard/src/lib/api.ts): its `api` client is typed by the server app, so
 * what a page receives is what the route answers. The type block is checked by `tsc` (npm run
 * typecheck covers dashboard/test/server) and fails when a route's response changes without the
 * contract (dashboard/server/contract.ts) the pages read; the rest runs the door's `unwrap` and
 * `routeQuery` against the real server through the same typed client.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, expectTypeOf, it } from "vitest";
import type {
  Activity,
  ApiKeyList,
  NewApiKey,
  Policy,
  Project,
  ProjectList,
  RequestCount,
  RequestPage,
  RescoreJob,
  ReviewCalibration,
  ReviewResult,
  SessionPage,
  Subscription,
  Timeseries,
  WebhookDeliveryList,
  WebhookList,
} from "../../server/contract";
import { type api, type Body, pathKey, RequestError, routeQuery, unwrap } from "../../src/lib/api";
import { ownerWithProject, typedClient } from "./helpers";

/** What the browser's `unwrap` yields for a call of `route` (its 2xx body). */
type Got<F extends (...args: never[]) => Promise<unknown>> = Body<Awaited<ReturnType<F>>>;
type One = (typeof api.projects)[":projectId"];

describe("The browser's door is typed by the server", () => {
  it("Should give each page the body its route answers", () => {
    expectTypeOf<Got<typeof api.projects.$get>>().toEqualTypeOf<ProjectList>();
    expectTypeOf<Got<typeof api.projects.$post>>().toEqualTypeOf<Project>();
    expectTypeOf<Got<One["$delete"]>>().toEqualTypeOf<undefined>();
    expectTypeOf<Got<One["keys"]["$get"]>>().toEqualTypeOf<ApiKeyList>();
    expectTypeOf<Got<One["keys"]["$post"]>>().toEqualTypeOf<NewApiKey>();
    expectTypeOf<Got<One["billing"]["$get"]>>().toEqualTypeOf<Subscription>();
    expectTypeOf<Got<One["activity"]["$get"]>>().toEqualTypeOf<Activity>();
    expectTypeOf<Got<One["requests"]["count"]["$get"]>>().toEqualTypeOf<RequestCount>();
    // JSON-typed fields (`metadata`: `unknown` in the schema) render as a JSON value type on the client.
    expectTypeOf<Omit<Got<One["requests"]["$get"]>["items"][number], "metadata">>().toEqualTypeOf<Omit<RequestPage["items"][number], "metadata">>();
    expectTypeOf<Got<One["stats"]["timeseries"]["$get"]>>().toEqualTypeOf<Timeseries>();
    expectTypeOf<Got<One["safety-scores"][":scoreId"]["review"]["$post"]>>().toEqualTypeOf<ReviewResult>();
    expectTypeOf<Got<One["policy"]["$get"]>>().toEqualTypeOf<Policy>();
    expectTypeOf<Got<One["policy"]["calibration"]["$get"]>>().toEqualTypeOf<ReviewCalibration>();
    expectTypeOf<Got<One["policy"]["rescore"]["$post"]>>().toEqualTypeOf<RescoreJob>();
    expectTypeOf<Omit<Got<One["sessions"]["$get"]>, "items">>().toEqualTypeOf<Omit<SessionPage, "items">>();
    expectTypeOf<Got<One["webhooks"]["$get"]>>().toEqualTypeOf<WebhookList>();
    expectTypeOf<Got<One["webhooks"][":id"]["deliveries"]["$get"]>>().toEqualTypeOf<WebhookDeliveryList>();
  });

  it("Should key a query by its path and return the route's body", async () => {
    const { owner, project } = await ownerWithProject();
    const keys = typedClient(owner).api.projects[":projectId"].keys;
    const query = routeQuery(keys, { param: { projectId: project.id } });
    expect(query.queryKey).toEqual(["api", "projects", project.id, "keys"]);
    expect(await query.queryFn()).toEqual({ items: [] });
    const count = typedClient(owner).api.projects[":projectId"].requests.count;
    const counted = routeQuery(count, { param: { projectId: project.id }, query: { model: "gpt-4o", status: "error" } });
    expect(counted.queryKey).toEqual(["api", "projects", project.id, "requests", "count", { model: "gpt-4o", status: "error" }]);
    expect(await counted.queryFn()).toEqual({ total: 0 });
    // A key of a path is a prefix of every key under it (one invalidation covers the feature).
    expect(counted.queryKey.slice(0, 4)).toEqual(pathKey(`/api/projects/${project.id}/requests`));
  });

  it("Should turn a refusal into RequestError with the server's detail", async () => {
    const { owner, project } = await ownerWithProject();
    const one = typedClient(owner).api.projects[":projectId"];
    const refused = await unwrap(one.requests.count.$get({ param: { projectId: project.id }, query: { label: "unsafe" } })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RequestError);
    expect(refused).toMatchObject({ status: 422, detail: expect.stringContaining("label") });
    const missing = await unwrap(one.keys.$get({ param: { projectId: randomUUID() } })).catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, detail: "project not found" });
    expect(await unwrap(one.keys[":keyId"].$delete({ param: { projectId: project.id, keyId: randomUUID() } })).catch((e: unknown) => e)).toBeInstanceOf(
      RequestError,
    );
  });
});
