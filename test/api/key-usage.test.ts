import { describe, expect, it } from "vitest";
import { api, internal, postLog, sql } from "./helpers";
import { newProject } from "./helpers";

type Key = { id: string; created_by: string | null; last_used_at: string | null };
const listKeys = async (projectId: string) =>
  ((await (await api(`/internal/projects/${projectId}/keys`, { headers: internal })).json()) as { items: Key[] }).items;

describe("Key creator and last use", () => {
  it("Should record who created a key and keep the creator through a rotation by someone else", async () => {
    const { projectId } = await newProject();
    const res = await api(`/internal/projects/${projectId}/keys`, { method: "POST", headers: internal, json: { name: "ci", created_by: "ada@example.com" } });
    expect(res.status).toBe(201);
    const created = (await res.json()) as Key;
    expect(created.created_by).toBe("ada@example.com");
    const rotated = await api(`/internal/projects/${projectId}/keys/${created.id}/rotate`, {
      method: "POST",
      headers: internal,
      json: { created_by: "bob@example.com" },
    });
    expect(((await rotated.json()) as { key: Key }).key.created_by).toBe("bob@example.com");
  });

  it("Should stamp last_used_at on the first accepted call and not again within the minute", async () => {
    const { projectId, key, keyId } = await newProject();
    expect((await listKeys(projectId))[0]!.last_used_at).toBeNull();
    expect((await postLog(key)).status).toBe(202);
    const [first] = await sql("SELECT last_used_at FROM api_keys WHERE id = $1", [keyId]);
    expect(first!.last_used_at).not.toBeNull();
    // Move the stamp back 30 s: a second call inside the minute leaves it alone.
    await sql("UPDATE api_keys SET last_used_at = now() - interval '30 seconds' WHERE id = $1", [keyId]);
    const [moved] = await sql("SELECT last_used_at FROM api_keys WHERE id = $1", [keyId]);
    expect((await postLog(key)).status).toBe(202);
    const [second] = await sql("SELECT last_used_at FROM api_keys WHERE id = $1", [keyId]);
    expect(new Date(second!.last_used_at as string).getTime()).toBe(new Date(moved!.last_used_at as string).getTime());
    expect((await listKeys(projectId))[0]!.last_used_at).not.toBeNull();
  });
});
