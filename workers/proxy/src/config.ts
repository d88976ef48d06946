/**
 * The capture proxy's configuration: its optional variables and its bindings, validated once
 * per env object (`proxyConfig`) and typed. With no variable set the proxy forwards to OpenAI and
 * queues records; a bad value is a `ConfigError` naming it (the proxy answers 500).
 */
import { z } from "zod";
import { configParser } from "../../../src/config/parse";
import { binding, httpUrlVar, nonNegativeIntVar, originListVar, positiveIntVar, textVar } from "../../../src/config/vars";
import { DEFAULT_UPSTREAM_TIMEOUT_MS } from "./forward";
import { DEFAULT_KEY_CHECK_TIMEOUT_MS } from "./key-check";
import { DEFAULT_LOG_BATCH_WINDOW_MS } from "./record-batch";
import { OPENAI_BASE, providerForBase } from "./upstreams";

/** The proxy's variables and bindings as they arrive (strings; see docs/configuration.md). */
export const proxyVars = z.object({
  /** Default upstream base URL (default `https://api.openai.com`); a path is kept. */
  UPSTREAM_BASE_URL: httpUrlVar,
  /** Comma-separated origins a request may pick with `X-Upstream-Base-URL`; empty: the header is refused (403). */
  UPSTREAM_ALLOWLIST: originListVar,
  /** Provider name logged for the default upstream; inferred from its host when unset. */
  UPSTREAM_PROVIDER: textVar,
  /** Milliseconds to wait for the upstream's response headers before answering 502 (default 600000). */
  UPSTREAM_TIMEOUT_MS: positiveIntVar(DEFAULT_UPSTREAM_TIMEOUT_MS),
  /** Milliseconds to wait for the Sightline key check (default 1000); past it the call goes unchecked. */
  KEY_CHECK_TIMEOUT_MS: positiveIntVar(DEFAULT_KEY_CHECK_TIMEOUT_MS),
  /** Service binding to sightline-api (GET /internal/keys/check). */
  API: binding<Fetcher>(),
  /**
   * Milliseconds a finished call's record waits for others ending in the same isolate, to share
   * one queue message (default 50; 0 sends each alone). Adds nothing to the application's time.
   */
  LOG_BATCH_WINDOW_MS: nonNegativeIntVar(DEFAULT_LOG_BATCH_WINDOW_MS),
  /** Producer of the log-records queue. */
  LOG_QUEUE: binding<Queue<unknown> | undefined>(),
  /** R2 bucket for records over the queue's message limit. */
  LOG_PAYLOADS: binding<R2Bucket | undefined>(),
});

const proxyConfigSchema = proxyVars.transform((v) => {
  const upstreamBase = v.UPSTREAM_BASE_URL ?? OPENAI_BASE;
  return {
    upstreamBase,
    upstreamProvider: v.UPSTREAM_PROVIDER ?? providerForBase(upstreamBase, "custom"),
    /** Allowed origins of `X-Upstream-Base-URL`. */
    upstreamAllowlist: v.UPSTREAM_ALLOWLIST,
    /** Milliseconds. */
    upstreamTimeoutMs: v.UPSTREAM_TIMEOUT_MS,
    /** Milliseconds. */
    keyCheckTimeoutMs: v.KEY_CHECK_TIMEOUT_MS,
    api: v.API,
    /** Where the records of served calls go (./enqueue-record.ts). */
    logRecords: {
      queue: v.LOG_QUEUE,
      payloads: v.LOG_PAYLOADS,
      /** Milliseconds (./record-batch.ts). */
      batchWindowMs: v.LOG_BATCH_WINDOW_MS,
    },
  };
});

/** The proxy's typed configuration. */
export type ProxyConfig = z.output<typeof proxyConfigSchema>;

/** The proxy's config from its env, parsed once per env object; throws `ConfigError`. */
export const proxyConfig = configParser(proxyConfigSchema);
