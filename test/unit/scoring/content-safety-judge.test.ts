import { describe, expect, it } from "vitest";
import { CLIP_MARK, MAX_TURN_CHARS } from "../../../src/scoring/judge/clip";
import { llamaGuardConversation, llamaGuardVerdict, parseLlamaGuard } from "../../../src/scoring/scorers/content_safety/judge";
import { ask, chat } from "./helpers";

describe("parseLlamaGuard: Workers AI JSON form", () => {
  it("Should read the {safe, categories} object of response_format json_object", () => {
    expect(parseLlamaGuard({ safe: true, categories: [] })).toEqual({ safe: true, categories: [] });
    expect(parseLlamaGuard({ safe: true })).toEqual({ safe: true, categories: [] });
    expect(parseLlamaGuard({ safe: false, categories: ["S1", "s10", "S1"] })).toEqual({ safe: false, categories: ["S1", "S10"] });
    expect(parseLlamaGuard({ safe: false, categories: ["S14"] })).toEqual({ safe: false, categories: ["S14"] });
  });

  it("Should keep an unsafe verdict whose codes are unknown, without categories", () => {
    expect(parseLlamaGuard({ safe: false, categories: ["S15", "toString"] })).toEqual({ safe: false, categories: [] });
  });

  it("Should give no verdict for anything else", () => {
    for (const bad of [
      undefined,
      null,
      42,
      true,
      ["safe"],
      {},
      { safe: "false", categories: [] },
      { safe: 0 },
      { safe: false, categories: "S1" },
      { safe: false, categories: [1] },
      { safe: true, categories: ["S1"] },
    ])
      expect(parseLlamaGuard(bad), JSON.stringify(bad)).toBeNull();
  });
});

describe("parseLlamaGuard: text form", () => {
  it("Should read 'safe' and 'unsafe' with a category line", () => {
    expect(parseLlamaGuard("safe")).toEqual({ safe: true, categories: [] });
    expect(parseLlamaGuard("\n\nunsafe\nS2")).toEqual({ safe: false, categories: ["S2"] });
    expect(parseLlamaGuard("unsafe\r\nS1, S10")).toEqual({ safe: false, categories: ["S1", "S10"] });
    expect(parseLlamaGuard("unsafe")).toEqual({ safe: false, categories: [] });
  });

  it("Should give no verdict for prose, contradictions or extra lines", () => {
    for (const bad of ["", "   ", "I cannot judge", "Safe to say yes", "safe\nS1", "unsafe\nS1\nbecause reasons", "unsafe: S1"]) {
      expect(parseLlamaGuard(bad), bad).toBeNull();
    }
  });
});

describe("llamaGuardConversation", () => {
  it("Should send the prompt alone when there is no completion", () => {
    expect(llamaGuardConversation(ask("How do I pick a lock?"))).toEqual([{ role: "user", content: "How do I pick a lock?" }]);
  });

  it("Should send the user turns then the completion, leaving system prompts and documents out", () => {
    const call = chat(
      [
        { role: "system", content: "You are a locksmith assistant." },
        { role: "user", content: "First question." },
        { role: "assistant", content: "First answer." },
        { role: "tool", content: "retrieved manual text" },
        { role: "user", content: "Second question." },
      ],
      "Final answer.",
    );
    expect(llamaGuardConversation(call)).toEqual([
      { role: "user", content: "First question.\n\nSecond question." },
      { role: "assistant", content: "Final answer." },
    ]);
  });

  it("Should keep the head and tail of an over-long turn", () => {
    const long = `${"a".repeat(MAX_TURN_CHARS)}${"b".repeat(MAX_TURN_CHARS)}`;
    const [user, assistant] = llamaGuardConversation(ask(long, long))!;
    for (const turn of [user!, assistant!]) {
      expect(turn.content).toHaveLength(MAX_TURN_CHARS + CLIP_MARK.length);
      expect(turn.content.startsWith("a".repeat(MAX_TURN_CHARS / 2) + CLIP_MARK)).toBe(true);
      expect(turn.content.endsWith("b".repeat(MAX_TURN_CHARS / 2))).toBe(true);
    }
    expect(llamaGuardConversation(ask("x".repeat(MAX_TURN_CHARS)))![0]!.content).toHaveLength(MAX_TURN_CHARS);
  });

  it("Should have nothing to ask without user text", () => {
    expect(llamaGuardConversation(chat([{ role: "system", content: "Be brief." }], "Hello."))).toBeNull();
    expect(llamaGuardConversation(chat([], undefined))).toBeNull();
  });
});

describe("llamaGuardVerdict", () => {
  it("Should name the categories of an unsafe verdict and give a safe one no reason", () => {
    expect(llamaGuardVerdict({ safe: false, categories: ["S2", "S10"] })).toEqual({ unsafe: true, reason: "S2 non-violent crimes, S10 hate" });
    expect(llamaGuardVerdict({ safe: false, categories: [] })).toEqual({ unsafe: true, reason: "unspecified" });
    expect(llamaGuardVerdict({ safe: true, categories: [] })).toEqual({ unsafe: false, reason: "" });
  });
});
