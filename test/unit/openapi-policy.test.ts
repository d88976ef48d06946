import { describe, expect, it } from "vitest";
import { createApp } from "../../workers/api/src/app";

type Doc = {
  paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};

describe("OpenAPI document: policy, re-scoring, retention", () => {
  it("Should describe GET/PUT /api/policy, POST /api/rescore, GET /api/rescore/{job_id}, score history and retention_days", async () => {
    const doc = (await (await createApp().request("/openapi.json", {}, {})).json()) as Doc;
    expect(Object.keys(doc.paths["/api/policy"]!).sort()).toEqual(["get", "put"]);
    expect(doc.paths["/api/policy"]!.put!.requestBody).toBeDefined();
    expect(doc.paths["/api/rescore"]!.post!.responses["202"]).toBeDefined();
    expect(doc.paths["/api/rescore"]!.post!.responses["422"]).toBeDefined();
    expect(doc.paths["/api/rescore/{job_id}"]!.get!.responses["404"]).toBeDefined();
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.PolicyInput!.properties!).sort()).toEqual(["judge", "judge_monthly_budget", "scorers", "store_pii"]);
    expect(Object.keys(schemas.Policy!.properties!)).toEqual(expect.arrayContaining(["judge", "judge_monthly_budget", "judge_calls_this_month"]));
    expect(Object.keys(schemas.RescoreJob!.properties!)).toEqual(expect.arrayContaining(["state", "total", "done"]));
    expect(Object.keys(schemas.SafetyScore!.properties!)).toEqual(
      expect.arrayContaining(["scorer_version", "policy_version", "unsafe_at", "scored_at", "decided_by"]),
    );
    expect(Object.keys(schemas.SafetyScoreHistory!.properties!)).toContain("decided_by");
    expect(JSON.stringify(schemas.LlmRequest)).toContain("score_history");
    expect(Object.keys(schemas.Subscription!.properties!)).toContain("retention_days");
  });
});
