/**
 * The contract the browser imports (dashboard/server/contract.ts) is exactly what the server's
 * routes answer: each type is compared with the response type Hono's RPC client infers from the
 * server app itself (`hc<DashboardApp>`). The comparisons are checked by `tsc` (npm run
 * typecheck covers dashboard/test/server); the test then calls two routes through that typed
 * client at run time.
 */
import { hc, type InferResponseType } from "hono/client";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { DashboardApp } from "../../server/app";
import type {
  ApiKey,
  ApiKeyList,
  CreatedWebhook,
  NewApiKey,
  PiiRevealList,
  Policy,
  Project,
  ProjectList,
  RequestCount,
  RequestDetail,
  RequestPage,
  RescoreJob,
  ReviewCalibration,
  ReviewResult,
  RotatedApiKey,
  SafetyScoreSummary,
  Subscription,
  Timeseries,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
} from "../../server/contract";
import { projectsOf, signUp, typedClient } from "./helpers";

type Client = ReturnType<typeof hc<DashboardApp>>;
type P = Client["api"]["projects"];
type One = P[":projectId"];
type Ok<T> = InferResponseType<T, 200>;

describe("The browser's contract is the server's answers", () => {
  it("Should match every route's inferred response type", () => {
    expectTypeOf<Ok<P["$get"]>>().toEqualTypeOf<ProjectList>();
    expectTypeOf<InferResponseType<P["$post"], 201>>().toEqualTypeOf<Project>();
    expectTypeOf<Ok<One["$patch"]>>().toEqualTypeOf<Project>();
    expectTypeOf<Ok<One["keys"]["$get"]>>().toEqualTypeOf<ApiKeyList>();
    expectTypeOf<InferResponseType<One["keys"]["$post"], 201>>().toEqualTypeOf<NewApiKey>();
    expectTypeOf<InferResponseType<One["keys"][":keyId"]["rotate"]["$post"], 201>>().toEqualTypeOf<RotatedApiKey>();
    expectTypeOf<Ok<One["keys"][":keyId"]["revoke"]["$post"]>>().toEqualTypeOf<ApiKey>();
    expectTypeOf<Ok<One["billing"]["$get"]>>().toEqualTypeOf<Subscription>();
    // JSON-typed fields (`metadata`, the bodies: `unknown` in the schemas) are left out of the two
    // comparisons below: Hono's client types render `unknown` as a JSON value type, not `unknown`.
    type Row<T extends { items: unknown[] }> = Omit<T["items"][number], "metadata">;
    type Page = Ok<One["requests"]["$get"]>;
    expectTypeOf<Row<Page>>().toEqualTypeOf<Row<RequestPage>>();
    expectTypeOf<Omit<Page, "items">>().toEqualTypeOf<Omit<RequestPage, "items">>();
    expectTypeOf<Ok<One["requests"]["count"]["$get"]>>().toEqualTypeOf<RequestCount>();
    type Json = "metadata" | "request_body" | "response_body";
    expectTypeOf<Omit<Ok<One["requests"][":id"]["$get"]>, Json>>().toEqualTypeOf<Omit<RequestDetail, Json>>();
    expectTypeOf<Ok<One["pii-reveals"]["$get"]>>().toEqualTypeOf<PiiRevealList>();
    expectTypeOf<Ok<One["stats"]["timeseries"]["$get"]>>().toEqualTypeOf<Timeseries>();
    expectTypeOf<Ok<One["safety-scores"]["summary"]["$get"]>>().toEqualTypeOf<SafetyScoreSummary>();
    expectTypeOf<Ok<One["safety-scores"][":scoreId"]["review"]["$post"]>>().toEqualTypeOf<ReviewResult>();
    expectTypeOf<Ok<One["policy"]["$get"]>>().toEqualTypeOf<Policy>();
    expectTypeOf<Ok<One["policy"]["$put"]>>().toEqualTypeOf<Policy>();
    expectTypeOf<Ok<One["policy"]["calibration"]["$get"]>>().toEqualTypeOf<ReviewCalibration>();
    expectTypeOf<InferResponseType<One["policy"]["rescore"]["$post"], 202>>().toEqualTypeOf<RescoreJob>();
    expectTypeOf<Ok<One["policy"]["rescore"][":jobId"]["$get"]>>().toEqualTypeOf<RescoreJob>();
    expectTypeOf<Ok<One["webhooks"]["$get"]>>().toEqualTypeOf<WebhookList>();
    expectTypeOf<InferResponseType<One["webhooks"]["$post"], 201>>().toEqualTypeOf<CreatedWebhook>();
    expectTypeOf<Ok<One["webhooks"][":id"]["test"]["$post"]>>().toEqualTypeOf<WebhookDelivery>();
    expectTypeOf<Ok<One["webhooks"][":id"]["deliveries"]["$get"]>>().toEqualTypeOf<WebhookDeliveryList>();
  });

  it("Should answer through the typed client as the contract says", async () => {
    const owner = await signUp();
    const [project] = await projectsOf(owner);
    const client = typedClient(owner);
    const list = await (await client.api.projects.$get()).json();
    expect(list.items.map((p) => p.id)).toEqual([project!.id]);
    const keys = await (await client.api.projects[":projectId"].keys.$get({ param: { projectId: project!.id } })).json();
    expect(keys.items).toEqual([]);
  });
});
