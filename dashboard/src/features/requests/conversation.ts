/** A logged call's bodies as chat messages (OpenAI, Anthropic and plain shapes). */

/** One message of the conversation. */
export interface Message {
  role: string;
  content: string;
}

/** Text of an OpenAI/Anthropic-style content field (string or parts). */
function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? p : ((p as { text?: string }).text ?? JSON.stringify(p)))).join("\n");
  return content === undefined || content === null ? "" : JSON.stringify(content);
}

const withTools = (m: { content: unknown; tool_calls?: unknown }) => text(m.content) + (m.tool_calls ? `\n[tool calls] ${JSON.stringify(m.tool_calls)}` : "");

/** The conversation of a request (system, messages) and its completion, in order. */
export function conversation(req: unknown, res: unknown): Message[] {
  const out: Message[] = [];
  const body = (req ?? {}) as { system?: unknown; messages?: { role: string; content: unknown; tool_calls?: unknown }[] };
  if (body.system) out.push({ role: "system", content: text(body.system) });
  for (const m of body.messages ?? []) out.push({ role: m.role, content: withTools(m) });
  const r = (res ?? {}) as { choices?: { message?: { role: string; content: unknown; tool_calls?: unknown } }[]; content?: unknown; role?: string };
  for (const c of r.choices ?? []) if (c.message) out.push({ role: c.message.role ?? "assistant", content: withTools(c.message) });
  if (r.content !== undefined && !r.choices) out.push({ role: r.role ?? "assistant", content: text(r.content) });
  return out;
}
