/**
 * Classification of database failures (src/db/driver/unavailable.ts) on real errors of the `pg`
 * driver against the test PostgreSQL: an administrator terminating the connection (57P01),
 * a connection that dies under an open transaction ("Connection terminated"), a closed port,
 * and ordinary query errors, which must stay 500s.
 */
import pg from "pg";
import { DatabaseError } from "pg-protocol";
import { describe, expect, inject, it } from "vitest";
import { DatabaseUnreachableError, guardDriver, isDatabaseUnavailable } from "../../src/db/driver/unavailable";

const url = inject("databaseUrl");

/** A pg DatabaseError as the driver builds it from an ErrorResponse with `code`. */
function serverError(code: string): DatabaseError {
  const err = new DatabaseError("server said no", 0, "error");
  err.code = code;
  err.severity = "FATAL";
  return err;
}

describe("isDatabaseUnavailable", () => {
  it("Should classify server errors by SQLSTATE class, never by text", () => {
    for (const code of ["08000", "08003", "08006", "08001", "57P01", "57P02", "57P03", "53300", "53200", "53100"])
      expect(isDatabaseUnavailable(serverError(code)), code).toBe(true);
    for (const code of ["42601", "23505", "22021", "57014", "28P01", "40001", "XX000"]) expect(isDatabaseUnavailable(serverError(code)), code).toBe(false);
    // A query error whose text sounds like an outage is still a query error.
    const misleading = serverError("P0001");
    misleading.message = "connection refused";
    expect(isDatabaseUnavailable(misleading)).toBe(false);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(false);
  });

  it("Should follow the cause chain (drizzle wraps driver errors) and know socket codes", () => {
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: serverError("57P01") }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("x", { cause: Object.assign(new Error("y"), { code: "ECONNRESET" }) }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("x", { cause: new DatabaseUnreachableError(new Error("gone")) }))).toBe(true);
    expect(isDatabaseUnavailable(new TypeError("undefined is not a function"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe("guardDriver on a real pg pool", () => {
  it("Should reject with DatabaseUnreachableError when nothing listens on the port", async () => {
    const pool = guardDriver(new pg.Pool({ connectionString: "postgres://postgres:postgres@127.0.0.1:1/none", connectionTimeoutMillis: 2_000 }));
    pool.on("error", () => {});
    const err = await pool.query("SELECT 1").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseUnreachableError);
    expect(isDatabaseUnavailable(err)).toBe(true);
    const viaConnect = await pool.connect().catch((e: unknown) => e);
    expect(viaConnect).toBeInstanceOf(DatabaseUnreachableError);
    await pool.end();
  });

  it("Should classify an administrator's termination (57P01) and the dead connection after it", async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const pool = guardDriver(new pg.Pool({ connectionString: url, max: 1 }));
    pool.on("error", () => {});
    try {
      const client = await pool.connect();
      client.on("error", () => {});
      await client.query("BEGIN");
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const sleeping = client.query("SELECT pg_sleep(10)").catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 200));
      await admin.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
      const terminated = await sleeping;
      expect((terminated as { code?: string }).code).toBe("57P01");
      expect(isDatabaseUnavailable(terminated)).toBe(true);
      // The connection is gone: the next statement fails inside pg without any server answer.
      const after = await client.query("SELECT 1").catch((e: unknown) => e);
      expect(after).toBeInstanceOf(DatabaseUnreachableError);
      expect(isDatabaseUnavailable(after)).toBe(true);
      client.release(true);
      // A query error on a live connection stays a query error (a 500 or a 4xx upstream).
      const syntax = await pool.query("SELEC 1").catch((e: unknown) => e);
      expect((syntax as { code?: string }).code).toBe("42601");
      expect(isDatabaseUnavailable(syntax)).toBe(false);
    } finally {
      await pool.end();
      await admin.end();
    }
  });
});
