import { describe, expect, it } from "vitest";
import { sql } from "../../../test/setup/sql";
import { cookiesOf, dash, nextIp, PASSWORD, projectsOf, signUp } from "./helpers";

describe("Accounts", () => {
  it("Should give a new account an organisation it owns and a first project", async () => {
    const user = await signUp("Ada");
    const projects = await projectsOf(user);
    expect(projects).toHaveLength(1);
    expect(projects[0]).toMatchObject({ name: "My first project", role: "owner" });
    // A second visit does not create another.
    expect(await projectsOf(user)).toHaveLength(1);
    const [row] = await sql("SELECT count(*)::int AS n FROM projects WHERE id = $1", [projects[0]!.id]);
    expect(row!.n).toBe(1);
  });

  it("Should set an HttpOnly, Secure, SameSite=Lax session cookie", async () => {
    const ip = nextIp();
    const email = `c${crypto.randomUUID().slice(0, 8)}@example.com`;
    const res = await dash("/api/auth/sign-up/email", { json: { email, password: PASSWORD, name: "C" }, headers: { "cf-connecting-ip": ip } });
    const session = res.headers.getSetCookie().find((c) => c.includes("session_token"));
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/Secure/i);
    expect(session).toMatch(/SameSite=Lax/i);
  });

  it("Should store passwords as PBKDF2 hashes, never in clear", async () => {
    const user = await signUp();
    const [row] = await sql("SELECT password FROM auth_account WHERE user_id = $1", [user.userId]);
    expect(row!.password).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect(row!.password).not.toContain(PASSWORD);
  });

  it("Should answer a wrong password and an unknown email with the same message", async () => {
    const user = await signUp();
    const ip = nextIp();
    const wrong = await dash("/api/auth/sign-in/email", { json: { email: user.email, password: "not the password" }, headers: { "cf-connecting-ip": ip } });
    const unknown = await dash("/api/auth/sign-in/email", {
      json: { email: `nobody-${user.email}`, password: "not the password" },
      headers: { "cf-connecting-ip": ip },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(((await wrong.json()) as { message: string }).message).toBe(((await unknown.json()) as { message: string }).message);
    const ok = await dash("/api/auth/sign-in/email", { json: { email: user.email, password: PASSWORD }, headers: { "cf-connecting-ip": ip } });
    expect(ok.status).toBe(200);
    expect(cookiesOf(ok)).toContain("session_token");
  });

  it("Should throttle sign-in after 5 attempts a minute from one address", async () => {
    const user = await signUp();
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await dash("/api/auth/sign-in/email", { json: { email: user.email, password: "wrong password!" }, headers: { "cf-connecting-ip": ip } });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // Another address is not affected.
    const other = await dash("/api/auth/sign-in/email", { json: { email: user.email, password: PASSWORD }, headers: { "cf-connecting-ip": nextIp() } });
    expect(other.status).toBe(200);
  });

  it("Should refuse a sign-in posted from another origin (CSRF)", async () => {
    const user = await signUp();
    const res = await dash("/api/auth/sign-in/email", {
      json: { email: user.email, password: PASSWORD },
      headers: { Origin: "https://evil.example", "cf-connecting-ip": nextIp() },
    });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});
