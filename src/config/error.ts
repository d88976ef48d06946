/**
 * `ConfigError`: a worker's variables failed validation. Its message names each bad variable
 * and what was expected, e.g. `LOG_MAX_BYTES: expected a positive integer, got "abc"`.
 */
import type { z } from "zod";

/** Raised (at the first request or batch of an isolate, or by `npm run dev`/`deploy`) for invalid variables. */
export class ConfigError extends Error {
  /** One `NAME: what was expected` line per bad variable. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(problems.join("; "));
    this.name = "ConfigError";
    this.problems = problems;
  }

  /** The error of a failed parse: one problem per issue, named by the variable (the issue's path). */
  static fromZod(error: z.ZodError): ConfigError {
    return new ConfigError(error.issues.map((i) => `${i.path.length ? i.path.map(String).join(".") : "env"}: ${i.message}`));
  }

  /** The `detail` the API answers with (500): `server configuration is invalid: ...`. */
  get detail(): string {
    return `server configuration is invalid: ${this.message}`;
  }
}
