/**
 * Issue 2: on the dev stack, with the key `npm run dev` printed, exactly the README's quick
 * start steps (POST /internal/log, then GET /api/requests, with curl) show the call. The
 * commands are taken from README.md's code block, only the port and the key substituted.
 */
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { poll, type RequestItem } from "../harness/api";
import { codeBlock, jsonValues } from "../harness/readme";
import { describeRun, runProgram } from "../harness/run";
import type { GetE2E } from "./context";

const README = "README.md";
const SECTION = "Quick start";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Every object key anywhere in a JSON value. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, into);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysOf(v, into);
    }
  return into;
}

/** Registers the quick-start tests. */
export function quickStartSuite(e2e: GetE2E): void {
  describe("README quick start (issue 2)", () => {
    it("Should start the stack with the README's command", () => {
      expect(codeBlock(README, SECTION, "sh", "npm run dev")).toMatch(/^npm run dev$/m);
    });

    it("Should show the logged call when the README's curl steps run as written, with the printed key", async () => {
      const { stack, api } = e2e();
      const steps = codeBlock(README, SECTION, "sh", "curl");
      expect(steps).toMatch(/^export SERVICE_API_KEY=\S+/m);
      expect(steps).toContain("http://localhost:8787/");
      const script = steps
        .replace(/^export SERVICE_API_KEY=\S+/m, `export SERVICE_API_KEY=${stack.key}`)
        .replaceAll("http://localhost:8787/", `${stack.apiUrl}/`);

      // A clean shell: nothing of this process's environment but what finds curl.
      const run = await runProgram("bash", ["-e", "-c", script], { cwd: tmpdir(), env: { PATH: process.env.PATH, HOME: tmpdir() }, timeoutMs: 60_000 });
      expect(run.code, describeRun("the README's curl steps", run)).toBe(0);
      const answers = jsonValues(run.stdout) as [{ id: string }, { items: RequestItem[]; total: number }];
      expect(answers, run.stdout).toHaveLength(2);
      const [logged, list] = answers;
      expect(logged.id).toMatch(UUID);
      expect(list.items).toContainEqual(
        expect.objectContaining({ id: logged.id, model: "gpt-4o-mini", provider: "openai", prompt_tokens: 12, completion_tokens: 4 }),
      );

      // The README's sample answers (`# {...}` lines) name only fields the real answers have.
      const samples = steps.split("\n").filter((line) => line.startsWith("# {"));
      expect(samples).toHaveLength(2);
      samples.forEach((sample, i) => {
        const named = [...sample.matchAll(/"(\w+)":/g)].map((m) => m[1]!);
        expect(named.length).toBeGreaterThan(0);
        expect([...keysOf(answers[i])]).toEqual(expect.arrayContaining(named));
      });

      // ... and, as the README says below the block, the call is scored soon after.
      await poll(
        "the quick-start call to be scored",
        async () => {
          const { items } = await api.get<{ items: RequestItem[] }>("/api/requests");
          return items.find((r) => r.id === logged.id && r.scoring_state === "scored");
        },
        60_000,
      );
      // A plain chat without documents: nothing for the document scorers to judge, and nothing
      // any scorer may call unsafe (a harmless call must look harmless).
      const detail = await api.scored(logged.id);
      const byName = Object.fromEntries(detail.safety_scores.map((s) => [s.scorer_name, s]));
      expect(byName.vector_weakness?.score_label).toBe("unscored");
      expect(byName.data_poisoning?.score_label).toBe("unscored");
      for (const s of detail.safety_scores) expect(s.score_label, `${s.scorer_name}: ${s.rationale}`).not.toBe("unsafe");
    });
  });
}
