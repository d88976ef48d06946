/**
 * Get started: how an empty project sends its first call (proxy base-URL swap for the OpenAI
 * SDK, the Node and Python client libraries, the .env block), then a note once calls arrive.
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Alert, Card, CodeBlock, PageTitle, QueryStatus } from "../components/ui";
import { queryKeys, request, type Activity } from "../lib/api";
import { useCurrentProject } from "../lib/projects";

export function Onboarding() {
  const project = useCurrentProject()!;
  const activity = useQuery({
    queryKey: queryKeys.activity(project.id),
    queryFn: () => request<Activity>(`/api/projects/${project.id}/activity`),
    refetchInterval: (q) => (q.state.data?.has_requests ? false : 5000),
  });
  const title = <PageTitle subtitle={`Send ${project.name}'s first call`}>Get started</PageTitle>;
  if (!activity.isSuccess) return <QueryStatus query={activity} title={title} />;
  const { api_url, proxy_url, has_requests } = activity.data;
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
      {title}
      <div className="flex flex-col gap-6">
        {has_requests ? (
          <Alert tone="success">This project is receiving calls. Request and score views arrive in the next dashboard release.</Alert>
        ) : (
          <Alert>
            No calls logged yet. First{" "}
            <Link className="underline" to={`/p/${project.id}/keys`}>
              create an API key
            </Link>
            , then use one of these.
          </Alert>
        )}
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
      </div>
    </>
  );
}
