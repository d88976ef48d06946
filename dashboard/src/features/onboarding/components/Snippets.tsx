/**
 * How to send a first call: the .env block, the OpenAI SDK through the proxy (base-URL swap),
 * and the Node and Python client libraries. Shown on Get started and on an empty Requests page.
 */
import { Card, CodeBlock } from "../../../components/ui";
import type { Activity } from "../../../../server/contract";

/** The three snippet cards for a project's public URLs. */
export function Snippets({ api_url, proxy_url }: Pick<Activity, "api_url" | "proxy_url">) {
  const env = `SERVICE_API_KEY=slk_...   # from the API keys page\nSIGHTLINE_BASE_URL=${api_url}\nSIGHTLINE_PROXY_URL=${proxy_url}`;
  const openai = `import OpenAI from "openai";

// Only the base URL changes; your OpenAI key still goes in Authorization.
const client = new OpenAI({
  baseURL: "${proxy_url}/v1",
  defaultHeaders: { "X-Service-Key": process.env.SERVICE_API_KEY },
});
await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hello" }] });`;
  const node = `import OpenAI from "openai";
import { configure, withProxy } from "sightline";

configure(); // reads SERVICE_API_KEY, SIGHTLINE_BASE_URL, SIGHTLINE_PROXY_URL
const client = withProxy(new OpenAI());`;
  const python = `from openai import OpenAI
import sightline

sightline.configure()  # reads SERVICE_API_KEY, SIGHTLINE_BASE_URL, SIGHTLINE_PROXY_URL
client = sightline.with_proxy(OpenAI())`;
  return (
    <>
      <Card title="1. Environment">
        <CodeBlock label=".env" code={env} />
      </Card>
      <Card title="2a. OpenAI SDK through the proxy (no library needed)">
        <CodeBlock label="Node snippet (OpenAI SDK)" code={openai} />
      </Card>
      <Card title="2b. Client libraries">
        <div className="flex flex-col gap-4">
          <CodeBlock label="Node snippet" code={node} />
          <CodeBlock label="Python snippet" code={python} />
        </div>
      </Card>
    </>
  );
}
