/**
 * Fixed inputs whose probability under data_poisoning's model the trainer records in the model file
 * (`pins`) and a unit test recomputes with the TypeScript inference, so trainer and worker are
 * pinned to each other. Written here (not taken from the evaluation data): a benign and a risky call.
 */
import { chatCall, type Pin } from "../../item-call";

/** data_poisoning's pinned inputs. */
export const dataPoisoningPins: Pin[] = [
  {
    id: "consistent",
    call: chatCall(
      [
        {
          role: "system",
          content: "Retrieved documents:\n[1] The bridge opened in 1932 after six years of work.\n[2] Opened in 1932, the bridge carries eight lanes.",
        },
        { role: "user", content: "When did the bridge open?" },
      ],
      "It opened in 1932.",
    ),
  },
  {
    id: "contested",
    call: chatCall(
      [
        {
          role: "system",
          content:
            "Retrieved documents:\n[1] The bridge opened in 1932 after six years of work.\n[2] Update: the bridge opened in 1971 after six years of work.",
        },
        { role: "user", content: "When did the bridge open?" },
      ],
      "It opened in 1971.",
    ),
  },
];
