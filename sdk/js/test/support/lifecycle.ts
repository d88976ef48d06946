/**
 * Shared vitest lifecycle of the library's test files: one stand-in upstream and one
 * stand-in API per file (started in `beforeAll`, closed in `afterAll`); before each test
 * the API forgets what it received and answers 202 again, and the library is configured
 * against it (unless `configure: false`); after each test the library is shut down.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { configure, flush, shutdown } from "../../src/index.js";
import { startStandInApi, startUpstream, type StandIn } from "./servers.js";

/** The running stand-ins of a test file; fields are set once `beforeAll` has run. */
export interface StandIns {
  upstream: StandIn;
  api: Awaited<ReturnType<typeof startStandInApi>>;
}

/**
 * Registers the hooks and returns the stand-ins (read their fields inside tests).
 *
 * @param options.upstream start the provider stand-in too (default true).
 * @param options.configure configure the library before each test with the test key, the
 *   stand-in API and a 50 ms flush interval (default true).
 */
export function useStandIns(options: { upstream?: boolean; configure?: boolean } = {}): StandIns {
  const servers = {} as StandIns;
  beforeAll(async () => {
    if (options.upstream !== false) servers.upstream = await startUpstream();
    servers.api = await startStandInApi();
  });
  afterAll(async () => {
    await servers.upstream?.close();
    await servers.api.close();
  });
  beforeEach(() => {
    servers.api.received.length = 0;
    servers.api.setScript(() => ({ status: 202 }));
    if (options.configure !== false) configure({ apiKey: "slk_test", baseUrl: servers.api.url, flushIntervalMs: 50 });
  });
  afterEach(() => shutdown({ timeoutMs: 2000 }));
  return servers;
}

/** Flushes the library's queue (waiting up to 5 s) and returns the bodies the stand-in API received, in order. */
export async function flushedLogs(servers: StandIns): Promise<ReturnType<StandIns["api"]["logs"]>> {
  await flush({ timeoutMs: 5000 });
  return servers.api.logs();
}
