/**
 * Capture proxy worker entry (dev port 8080): an OpenAI-compatible pass-through that logs each
 * call to the API in the background. See proxy.ts for the flow and README.md for routes.
 */
import { ConfigError } from "../../../src/config/error";
import { proxyConfig } from "./config";
import type { ProxyEnv } from "./env";
import { detailResponse, handleProxy } from "./proxy";
import { logError, withLogContext } from "../../../src/logger";

export default {
  fetch: (request, env, ctx) =>
    // Every line logged for this call, background capture included, carries its id (src/logger.ts).
    // The id is not added to the response: the provider's own `x-request-id` passes through as is.
    withLogContext({ http_request_id: crypto.randomUUID() }, async () => {
      try {
        return await handleProxy(request, proxyConfig(env), ctx);
      } catch (err) {
        if (err instanceof ConfigError) {
          logError("proxy configuration is invalid", { problems: err.message });
          return detailResponse(500, err.detail);
        }
        // Only a bug gets here (logging never throws): answer in the proxy's error shape.
        logError("proxy failed", {}, err);
        return detailResponse(500, "the capture proxy failed to handle this request");
      }
    }),
} satisfies ExportedHandler<ProxyEnv>;
