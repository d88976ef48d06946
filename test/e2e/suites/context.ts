/**
 * What every e2e suite works with: the running `npm run dev` stack, the provider and Stripe
 * stand-ins, and the API as the demo project's key sees it. Suites get a getter because the stack is
 * started in `beforeAll`, after the suites are collected.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { ROOT } from "../../../scripts/lib/postgres";
import type { RequestDetail, StackApi } from "../harness/api";
import { SCORERS } from "../harness/api";
import type { DevStack } from "../harness/dev-stack";
import type { ProviderStandIns } from "../harness/upstreams";

/** The shared state of one e2e run. */
export interface E2E {
  stack: DevStack;
  providers: ProviderStandIns;
  /** The Stripe stand-in `npm run dev` runs (no STRIPE_SECRET_KEY set), forwarding to the stack's webhook. */
  stripe: StripeStandIn;
  /** The API with the demo key `npm run dev` printed. */
  api: StackApi;
}

/** The Stripe stand-in inside `npm run dev`: its URL, the test values it runs with, what it logged. */
export interface StripeStandIn {
  url: string;
  /** STRIPE_SECRET_KEY, the price ids and PAYMENT_WEBHOOK_SECRET (packages/stripe-stand-in/src/dev.ts). */
  vars: Record<string, string>;
  /** The stack's output, where the stand-in logs each delivered event. */
  output(): string;
}

/** Returns the e2e state once `beforeAll` has started the stack. */
export type GetE2E = () => E2E;

/** Parsed JSON of a file under the repository root. */
export const readJson = (path: string): any => JSON.parse(readFileSync(join(ROOT, path), "utf8"));

/**
 * Asserts the six score rows of one request: one per scorer, each a Likert value with the
 * label docs/decisions.md D10 gives it (4-5 unsafe, 1-3 safe, null unscored) and a rationale.
 */
export function expectSixScores(detail: RequestDetail): void {
  expect(detail.safety_scores.map((s) => s.scorer_name).sort()).toEqual([...SCORERS]);
  for (const score of detail.safety_scores) {
    expect(score.request_id).toBe(detail.id);
    const label = score.score_value === null ? "unscored" : score.score_value >= 4 ? "unsafe" : "safe";
    expect(score.score_label, `${score.scorer_name}: ${score.score_value}`).toBe(label);
    if (score.score_value !== null) expect([1, 2, 3, 4, 5]).toContain(score.score_value);
    expect(typeof score.rationale).toBe("string");
  }
}
