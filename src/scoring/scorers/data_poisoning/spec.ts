/**
 * data_poisoning's learned model: its rules (./rules.ts), view (./view.ts: structural
 * indicators only) and fit. The model weighs the shape of a contradiction, and only where the
 * answer takes a side (`takesSides`).
 */
import { learnedSpec } from "../../inference/specs";
import { dataPoisoningJudge } from "./judge";
import { extracted } from "../../rules";
import { scoreDataPoisoning, takesSides } from "./rules";
import { dataPoisoningView } from "./view";

/** data_poisoning's spec (`learnedSpec`, with the default false-alarm budget). */
export const dataPoisoningSpec = learnedSpec("data_poisoning", scoreDataPoisoning, dataPoisoningView, {
  grams: "words+chars",
  judges: (call) => takesSides(extracted(call)),
  fit: { C: 1, class_weight: "balanced" },
  judge: dataPoisoningJudge,
});
