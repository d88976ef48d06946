import { afterEach, describe, expect, it, vi } from "vitest";
import { startStandInApi } from "./support/servers.js";

/** A fresh copy of the library (module state: the one-time warning, the configuration). */
async function fresh() {
  vi.resetModules();
  return import("../src/index.js");
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("configuration", () => {
  it("Should read the key from SERVICE_API_KEY", async () => {
    const api = await startStandInApi();
    vi.stubEnv("SERVICE_API_KEY", "slk_from_env");
    vi.stubEnv("SIGHTLINE_BASE_URL", api.url);
    const lib = await fresh();
    lib.configure({ flushIntervalMs: 10 });
    lib.trace({ model: "m" }, () => 1)();
    expect(await lib.flush({ timeoutMs: 3000 })).toBe(true);
    expect(api.received[0]?.headers["x-service-key"]).toBe("slk_from_env");
    await lib.shutdown();
    await api.close();
  });

  it("Should configure itself from the environment on first use", async () => {
    const api = await startStandInApi();
    vi.stubEnv("SERVICE_API_KEY", "slk_auto");
    vi.stubEnv("SIGHTLINE_BASE_URL", api.url + "/");
    const lib = await fresh();
    lib.trace({ model: "m" }, () => 1)();
    expect(await lib.flush({ timeoutMs: 3000 })).toBe(true);
    expect(api.logs()).toHaveLength(1);
    await lib.shutdown();
    await api.close();
  });

  it("Should warn once without a key and then do nothing", async () => {
    vi.stubEnv("SERVICE_API_KEY", "");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const lib = await fresh();
    lib.configure();
    const fn = lib.trace({ model: "m" }, (x: number) => x + 1);
    expect(fn(1)).toBe(2);
    expect(fn(2)).toBe(3);
    const client = { baseURL: "https://api.openai.com/v1" };
    expect(lib.withProxy(client)).toBe(client);
    lib.configure();
    expect(await lib.flush()).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/no API key.*SERVICE_API_KEY/);
    expect(lib.stats().enqueued).toBe(0);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("Should be a no-op when disabled (option or SIGHTLINE_ENABLED=0)", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const lib = await fresh();
    lib.configure({ apiKey: "slk_x", enabled: false });
    expect(lib.trace({ model: "m" }, () => "same")()).toBe("same");
    const client = { withOptions: vi.fn() };
    expect(lib.withProxy(client)).toBe(client);
    expect(client.withOptions).not.toHaveBeenCalled();
    expect(lib.stats().enqueued).toBe(0);
    vi.stubEnv("SIGHTLINE_ENABLED", "off");
    lib.configure({ apiKey: "slk_x" });
    lib.trace({ model: "m" }, () => "same")();
    expect(lib.stats().enqueued).toBe(0);
    expect(warn).not.toHaveBeenCalled();
  });

  it("Should reject invalid options at configure() time", async () => {
    const lib = await fresh();
    expect(() => lib.configure({ apiKey: "k", batchSize: 0 })).toThrow(RangeError);
    expect(() => lib.configure({ apiKey: "k", timeoutMs: -1 })).toThrow(RangeError);
    expect(() => lib.configure({ apiKey: "k", onError: "nope" as never })).toThrow(TypeError);
  });

  it("Should swallow errors thrown by onError", async () => {
    const lib = await fresh();
    const api = await startStandInApi(() => ({ status: 400 }));
    lib.configure({
      apiKey: "k",
      baseUrl: api.url,
      flushIntervalMs: 10,
      onError: () => {
        throw new Error("handler bug");
      },
    });
    lib.trace({ model: "m" }, () => 1)();
    expect(await lib.flush({ timeoutMs: 3000 })).toBe(true);
    expect(lib.stats().rejected).toBe(1);
    await lib.shutdown();
    await api.close();
  });
});
