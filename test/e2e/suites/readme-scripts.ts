/**
 * Issue 5: the Node and the Python script of the client libraries' READMEs ("Try it against
 * the local stack") log a call through each mode (proxy mode with the openai client, direct
 * mode with the Anthropic and Cohere wrappers, trace) against `npm run dev`, and the calls
 * appear in GET /api/requests with their six scores. The code blocks run exactly as written;
 * only environment variables point them at this stack and at the provider stand-ins.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../../scripts/lib/postgres";
import type { RequestDetail } from "../harness/api";
import { codeBlock } from "../harness/readme";
import { describeRun, runProgram, type RunResult } from "../harness/run";
import { installSightlineJs, pythonProviders, scriptEnv } from "../harness/script-env";
import { expectSixScores, readJson, type GetE2E } from "./context";

const SECTION = "Try it against the local stack";
const OPENAI_TEXT: string = readJson("test/fixtures/openai/chat-completion.json").choices[0].message.content;
const ANTHROPIC = readJson("sdk/js/test/fixtures/anthropic-message.json");
const COHERE = readJson("sdk/js/test/fixtures/cohere-v2-chat.json");

/** Registers the README script tests. */
export function readmeScriptsSuite(e2e: GetE2E): void {
  describe("client library README scripts (issue 5)", () => {
    let work = "";
    const python = pythonProviders();

    beforeAll(() => {
      // Inside the repository, so the script's imports of the provider SDKs resolve.
      work = mkdtempSync(join(ROOT, ".data", "e2e-scripts-"));
    });
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    /** Runs a README script, then checks its output, its four records and their scores. */
    async function expectFourModes(run: () => Promise<RunResult>, what: string, sdk: string, flushed: string): Promise<void> {
      const { api, providers } = e2e();
      const before = await api.requestIds();
      const directSeen = providers.directReceived.length;
      const result = await run();
      expect(result.code, describeRun(what, result)).toBe(0);
      expect(result.stdout.trim().split("\n"), describeRun(what, result)).toEqual([
        OPENAI_TEXT,
        ANTHROPIC.content[0].text,
        COHERE.message.content[0].text,
        `HELLO SIGHTLINE delivered: ${flushed}`,
      ]);
      // Direct mode really reached the provider stand-in, with the provider keys.
      const direct = providers.directReceived.slice(directSeen);
      expect(direct.map((r) => r.path)).toEqual(["/v1/messages", "/v2/chat"]);
      // Anthropic's key travels in x-api-key (or, with @anthropic-ai/sdk 1.x, as a bearer token).
      expect(direct[0]!.headers["x-api-key"] ?? direct[0]!.headers.authorization).toMatch(/^(Bearer )?sk-ant-e2e$/);
      expect(direct[1]!.headers.authorization).toBe("Bearer co-e2e");

      const fresh = await api.newRequests(before, 4);
      expect(fresh).toHaveLength(4);
      const byModel = new Map<string, RequestDetail>(fresh.map((r) => [r.model, r]));
      const usage = ANTHROPIC.usage;
      expect(byModel.get("gpt-4o-mini"), "proxy mode, logged by the proxy").toMatchObject({
        metadata: expect.not.objectContaining({ sdk: expect.anything() }),
      });
      expect(byModel.get("gpt-4o-mini")!.response_body.choices[0].message.content).toBe(OPENAI_TEXT);
      expect(byModel.get("claude-3-5-haiku-latest")).toMatchObject({
        provider: "anthropic",
        prompt_tokens: usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens,
        completion_tokens: usage.output_tokens,
        metadata: expect.objectContaining({ sdk: expect.stringMatching(sdk) }),
      });
      expect(byModel.get("command-a-03-2025")).toMatchObject({
        provider: "cohere",
        prompt_tokens: COHERE.usage.billed_units.input_tokens,
        completion_tokens: COHERE.usage.billed_units.output_tokens,
        metadata: expect.objectContaining({ sdk: expect.stringMatching(sdk) }),
      });
      expect(byModel.get("local-demo")).toMatchObject({ provider: "custom", metadata: expect.objectContaining({ sdk: expect.stringMatching(sdk) }) });
      for (const record of fresh) expectSixScores(await api.scored(record.id));
    }

    it("Should log proxy, direct (Anthropic, Cohere) and trace calls from the Node README's script, each with six scores", async () => {
      const { stack, providers } = e2e();
      const file = join(work, "try-sightline.mjs");
      writeFileSync(file, codeBlock("sdk/js/README.md", SECTION, "js", "withProxy"));
      await installSightlineJs(work);
      const env = scriptEnv({ key: stack.key, apiUrl: stack.apiUrl, proxyUrl: stack.proxyUrl, directUrl: providers.directUrl });
      await expectFourModes(
        () => runProgram(process.execPath, [file], { cwd: work, env, timeoutMs: 60_000 }),
        "node try-sightline.mjs",
        "^sightline-js/",
        "true",
      );
    });

    it(`Should log proxy, direct (Anthropic, Cohere) and trace calls from the Python README's script, each with six scores (${python.note})`, async () => {
      const { stack, providers } = e2e();
      const file = join(work, "try_sightline.py");
      writeFileSync(file, codeBlock("sdk/python/README.md", SECTION, "python", "with_proxy"));
      const env = scriptEnv({
        key: stack.key,
        apiUrl: stack.apiUrl,
        proxyUrl: stack.proxyUrl,
        directUrl: providers.directUrl,
        extra: { PYTHONPATH: [join(ROOT, "sdk/python"), ...python.paths].join(":"), PYTHONDONTWRITEBYTECODE: "1" },
      });
      await expectFourModes(
        () => runProgram("python3", [file], { cwd: work, env, timeoutMs: 60_000 }),
        "python3 try_sightline.py",
        "^sightline-python/",
        "True",
      );
    });
  });
}
