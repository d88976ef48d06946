import { beforeAll, describe, expect, it } from "vitest";
import { flush, trace, traced } from "../src/index.js";
import { useStandIns } from "./support/lifecycle.js";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import type { makeModel as MakeModel } from "./fixtures/decorated.js";

/** Compiles fixtures/decorated.ts with tsc's standard-decorator emit and loads it. */
async function loadDecorated(): Promise<ReturnType<typeof MakeModel>> {
  const source = readFileSync(join(import.meta.dirname, "fixtures", "decorated.ts"), "utf8");
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, experimentalDecorators: false },
  });
  const file = join(mkdtempSync(join(tmpdir(), "sightline-decorated-")), "decorated.mjs");
  writeFileSync(file, outputText);
  const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { makeModel: typeof MakeModel };
  return mod.makeModel(traced);
}

const servers = useStandIns({ upstream: false });

describe("trace()", () => {
  it("Should wrap a sync function: same this, args and return value", async () => {
    const self = { n: 2 };
    const double = trace({ model: "m1" }, function double(this: { n: number }, x: number) {
      return x * this.n;
    });
    expect(double.call(self, 21)).toBe(42);
    expect(double.name).toBe("double");
    await flush({ timeoutMs: 5000 });
    expect(servers.api.logs()[0]).toMatchObject({
      model: "m1",
      provider: "custom",
      request_body: { args: [21] },
      response_body: { output: 42 },
      metadata: { status: "success", trace: "double", token_count_source: "estimated" },
    });
  });

  it("Should return the very same promise of an async function and log the resolved value", async () => {
    let inner: Promise<string> | undefined;
    const fn = (s: string) => (inner = Promise.resolve(`ok:${s}`));
    const wrapped = trace({ model: "m2", provider: "internal", name: "custom-label" }, fn);
    const p = wrapped("x");
    expect(p).toBe(inner);
    expect(await p).toBe("ok:x");
    await flush({ timeoutMs: 5000 });
    expect(servers.api.logs()[0]).toMatchObject({ provider: "internal", response_body: { output: "ok:x" }, metadata: { trace: "custom-label" } });
  });

  it("Should re-throw the same error object from a sync function and log it", async () => {
    const boom = new TypeError("bad input");
    const fn = trace({ model: "m3" }, () => {
      throw boom;
    });
    let caught: unknown;
    try {
      fn();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBe(boom);
    await flush({ timeoutMs: 5000 });
    expect(servers.api.logs()[0]).toMatchObject({ response_body: null, metadata: { status: "error", error: { type: "TypeError", message: "bad input" } } });
  });

  it("Should pass a rejected promise through with the same reason", async () => {
    const reason = new Error("async failure");
    const fn = trace({ model: "m4" }, async () => {
      throw reason;
    });
    await expect(fn()).rejects.toBe(reason);
    await flush({ timeoutMs: 5000 });
    expect(servers.api.logs()[0].metadata.error.message).toBe("async failure");
  });
});

describe("@traced (TC39 decorator)", () => {
  let Model: ReturnType<typeof MakeModel>;
  beforeAll(async () => {
    Model = await loadDecorated();
  });

  it("Should log a sync method with Class.method as label and keep this", async () => {
    const m = new Model();
    expect(m.shout("hi")).toBe(">HI");
    await flush({ timeoutMs: 5000 });
    expect(servers.api.logs()[0]).toMatchObject({
      model: "my-finetune-v3",
      request_body: { args: ["hi"] },
      response_body: { output: ">HI" },
      metadata: { trace: "Model.shout" },
    });
  });

  it("Should log an async method's output", async () => {
    expect(await new Model().summarise("hello world")).toEqual({ summary: ">hell" });
    await flush({ timeoutMs: 5000 });
    expect(servers.api.logs()[0]).toMatchObject({ provider: "vllm", response_body: { output: { summary: ">hell" } } });
  });

  it("Should re-throw from a decorated async method with the same error object", async () => {
    const error = new RangeError("nope");
    await expect(new Model().fail(error)).rejects.toBe(error);
    await flush({ timeoutMs: 5000 });
    expect(servers.api.logs()[0]).toMatchObject({ model: "broken", metadata: { status: "error", trace: "explode", error: { type: "RangeError" } } });
  });

  it("Should decorate a static method", async () => {
    expect(Model.version()).toBe("v1");
    await flush({ timeoutMs: 5000 });
    expect(servers.api.logs()[0]).toMatchObject({ model: "static-model", metadata: { trace: "Model.version" } });
  });
});
