/**
 * Capture proxy worker entry (dev port 8080): an OpenAI-compatible pass-through that logs each
 * call to the API in the background. See proxy.ts for the flow and README.md for routes.
 */
import type { ProxyEnv } from "./env";
import { detailResponse, handleProxy } from "./proxy";

export default {
  async fetch(request, env, ctx) {
    try {
      return await handleProxy(request, env, ctx);
    } catch (err) {
      // Only a bug gets here (logging never throws): answer in the proxy's error shape.
      console.error(JSON.stringify({ msg: "proxy failed", error: String(err) }));
      return detailResponse(500, "the capture proxy failed to handle this request");
    }
  },
} satisfies ExportedHandler<ProxyEnv>;
