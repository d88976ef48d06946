/**
 * The remote LLM providers, stood in by local servers replaying recorded wire responses:
 * - OpenAI (behind the capture proxy, given to the stack as UPSTREAM_BASE_URL): the proxy
 *   tests' upstream (test/proxy/stand-ins.ts, test/fixtures/openai/);
 * - Anthropic and Cohere (direct mode, reached by the provider SDKs through their base URL):
 *   the Node library's upstream (sdk/js/test/support/servers.ts, sdk/js/test/fixtures/).
 */
import { startUpstream, type Received, type StandIn } from "../../../sdk/js/test/support/servers";
import { startStandIns, type SeenRequest } from "../../proxy/stand-ins";

/** Running provider stand-ins. */
export interface ProviderStandIns {
  /** OpenAI-compatible upstream for the proxy (no trailing slash, no /v1). */
  openaiUrl: string;
  /** What the OpenAI upstream saw of the requests sent with `x-test-run: run`. */
  openaiSaw(run: string): Promise<SeenRequest[]>;
  /** Anthropic (`/v1/messages`) and Cohere (`/v1/chat`, `/v2/chat`) upstream. */
  directUrl: string;
  /** Requests the Anthropic/Cohere upstream received, in order. */
  directReceived: Received[];
  close(): Promise<void>;
}

/** Starts both stand-ins on free loopback ports. */
export async function startProviderStandIns(): Promise<ProviderStandIns> {
  const { upstreamUrl } = await startStandIns();
  const direct: StandIn = await startUpstream();
  return {
    openaiUrl: upstreamUrl,
    openaiSaw: async (run) => (await (await fetch(`${upstreamUrl}/__control/requests?run=${encodeURIComponent(run)}`)).json()) as SeenRequest[],
    directUrl: direct.url,
    directReceived: direct.received,
    // The OpenAI stand-in is a per-process singleton whose server is unref'd: nothing to close.
    close: () => direct.close(),
  };
}
