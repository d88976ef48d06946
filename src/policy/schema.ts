/**
 * A project's policy (docs/policy.md): per scorer whether it runs (`enabled`) and from which
 * Likert value its label is `unsafe` (`unsafe_at`, 3..5, default 4 as docs/decisions.md D10),
 * the `pii_detection` allow list, and whether personal data is masked before storage
 * (`store_pii`). The zod schema here validates `PUT /api/policy` (unknown scorers and fields
 * answer 422 naming them) and describes the route in the OpenAPI document.
 */
import { z } from "@hono/zod-openapi";
import { JUDGE_MODES, type JudgeMode, SCORER_NAMES, type ScorerName, STORE_PII_MODES } from "../enums";

/** Values of `unsafe_at`: the Likert value from which a score is labelled `unsafe`. */
export const UNSAFE_AT_VALUES = [3, 4, 5] as const;

/** `unsafe_at` when the policy does not set it (docs/decisions.md D10: 4-5 unsafe). */
export const DEFAULT_UNSAFE_AT = 4;

/** Guard-model calls a project may make per calendar month (UTC) when its policy does not say. */
export const DEFAULT_JUDGE_MONTHLY_BUDGET = 1_000;

/** The largest monthly guard-model budget a policy may set. */
export const MAX_JUDGE_MONTHLY_BUDGET = 10_000_000;

/** Entries of the allow list at most. */
export const MAX_ALLOW_ENTRIES = 200;

const unsafeAt = z
  .union(UNSAFE_AT_VALUES.map((v) => z.literal(v)) as [z.ZodLiteral<3>, z.ZodLiteral<4>, z.ZodLiteral<5>])
  .openapi({ description: "Likert value from which the label is `unsafe`: 3, 4 or 5 (default 4)", example: 4 });

const ScorerPolicyShape = {
  enabled: z.boolean().default(true).openapi({ description: "false: the scorer does not run and writes no score" }),
  unsafe_at: unsafeAt.default(DEFAULT_UNSAFE_AT),
};

/** An e-mail domain entry ("@acme.example") or an exact value ("support@acme.example", "+1 555 0100"). */
const AllowEntry = z
  .string()
  .trim()
  .min(1)
  .max(256)
  .refine((v) => !v.startsWith("@") || /^@[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(v), { message: 'an e-mail domain entry looks like "@acme.example"' });

const ScorerPolicy = z.strictObject(ScorerPolicyShape).openapi("ScorerPolicy");

const PiiScorerPolicy = z
  .strictObject({
    ...ScorerPolicyShape,
    allow: z
      .array(AllowEntry)
      .max(MAX_ALLOW_ENTRIES)
      .default([])
      .openapi({
        description: 'Values not to flag or mask: exact values, or e-mail domains such as "@acme.example"',
        example: ["support@acme.example", "@acme.example"],
      }),
  })
  .openapi("PiiScorerPolicy");

const defaultScorer = () => ({ enabled: true, unsafe_at: DEFAULT_UNSAFE_AT });

const scorersShape = Object.fromEntries(SCORER_NAMES.map((n) => [n, n === "pii_detection" ? PiiScorerPolicy.optional() : ScorerPolicy.optional()])) as {
  pii_detection: z.ZodOptional<typeof PiiScorerPolicy>;
} & Record<Exclude<ScorerName, "pii_detection">, z.ZodOptional<typeof ScorerPolicy>>;

/** The guard-model tier's two settings (docs/scoring.md "Guard-model tier"), in the input and the stored policy alike. */
const judgeShape = {
  judge: z.enum(JUDGE_MODES).default("off").openapi({
    description:
      "Guard-model tier: `off`; `uncertain`: a guard model decides scores inside each scorer's uncertain band; `all`: every scored call of the judged scorers. Needs a judge backend on the scorer worker (docs/configuration.md).",
  }),
  judge_monthly_budget: z
    .number()
    .int()
    .min(0)
    .max(MAX_JUDGE_MONTHLY_BUDGET)
    .default(DEFAULT_JUDGE_MONTHLY_BUDGET)
    .openapi({ description: "Guard-model calls per calendar month (UTC); once spent, the local scores stand", example: DEFAULT_JUDGE_MONTHLY_BUDGET }),
};

/** Body of `PUT /api/policy`: the whole policy; a scorer or field left out takes its default. */
export const PolicyInputSchema = z
  .strictObject({
    scorers: z.strictObject(scorersShape).default({}).openapi({ description: "Per scorer; unknown scorer names are refused (422)" }),
    store_pii: z
      .enum(STORE_PII_MODES)
      .default("keep")
      .openapi({ description: "`mask`: what pii_detection finds in request and response bodies is masked before storage" }),
    ...judgeShape,
  })
  .openapi("PolicyInput");

/** One scorer's settings in force. */
export interface ScorerSettings {
  enabled: boolean;
  unsafe_at: 3 | 4 | 5;
  /** `pii_detection` only. */
  allow?: string[];
}

/** `pii_detection`'s settings: always with its allow list (empty by default). */
export interface PiiScorerSettings extends ScorerSettings {
  allow: string[];
}

/** A complete policy: every scorer has its settings (defaults filled in). */
export interface ProjectPolicy {
  scorers: { pii_detection: PiiScorerSettings } & Record<Exclude<ScorerName, "pii_detection">, ScorerSettings>;
  store_pii: (typeof STORE_PII_MODES)[number];
  /** When a guard model is asked (`JUDGE_MODES`). */
  judge: JudgeMode;
  /** Guard-model calls per calendar month (UTC). */
  judge_monthly_budget: number;
}

/** A stored policy with its version (0: the default policy, never changed). */
export interface VersionedPolicy {
  policy: ProjectPolicy;
  version: number;
}

/** The policy as stored and answered: every scorer listed, defaults filled in. */
export const PolicySchema = z
  .object({
    scorers: z.object(
      Object.fromEntries(SCORER_NAMES.map((n) => [n, n === "pii_detection" ? PiiScorerPolicy : ScorerPolicy])) as {
        pii_detection: typeof PiiScorerPolicy;
      } & Record<Exclude<ScorerName, "pii_detection">, typeof ScorerPolicy>,
    ),
    store_pii: z.enum(STORE_PII_MODES),
    judge: judgeShape.judge.removeDefault(),
    judge_monthly_budget: judgeShape.judge_monthly_budget.removeDefault(),
    judge_calls_this_month: z
      .number()
      .int()
      .openapi({ description: "Guard-model calls reserved this calendar month (UTC), against judge_monthly_budget (read-only)" }),
    version: z.number().int().openapi({ description: "Grows by one per change; 0 = the default policy. Scores record it as `policy_version`." }),
    updated_at: z.string().nullable(),
  })
  .openapi("Policy");

/** The complete policy of a validated `PUT /api/policy` body (or of a stored document). */
export function completePolicy(input: z.output<typeof PolicyInputSchema>): ProjectPolicy {
  const scorers = Object.fromEntries(
    SCORER_NAMES.map((n) => {
      const given = input.scorers[n];
      const base = given ? { enabled: given.enabled, unsafe_at: given.unsafe_at } : defaultScorer();
      return [n, n === "pii_detection" ? { ...base, allow: (given as { allow?: string[] } | undefined)?.allow ?? [] } : base];
    }),
  ) as ProjectPolicy["scorers"];
  return { scorers, store_pii: input.store_pii, judge: input.judge, judge_monthly_budget: input.judge_monthly_budget };
}

/** The policy of a project that never set one. */
export const DEFAULT_POLICY: ProjectPolicy = completePolicy(PolicyInputSchema.parse({}));

/**
 * The policy of a stored document (`project_policies.policy`); the default policy for null.
 * A document that no longer validates (written by an older version) also falls back to the default.
 */
export function policyFromStored(stored: unknown): ProjectPolicy {
  if (stored === null || stored === undefined) return DEFAULT_POLICY;
  const parsed = PolicyInputSchema.safeParse(stored);
  return parsed.success ? completePolicy(parsed.data) : DEFAULT_POLICY;
}
