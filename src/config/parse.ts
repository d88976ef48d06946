/**
 * Parses a worker's env once: `configParser(schema)` returns a function from the env object to
 * the typed config, cached per env object (Workers hand one env object to every request and
 * batch of an isolate), or a `ConfigError` naming each bad variable (thrown on every call).
 */
import type { z } from "zod";
import { logError } from "../logger";
import { ConfigError } from "./error";

/** A worker's parser: env object -> config; throws `ConfigError`. */
export type ConfigParser<C> = (env: object) => C;

/** Builds the cached parser of `schema` (see the module doc). */
export function configParser<S extends z.ZodType>(schema: S): ConfigParser<z.output<S>> {
  const cache = new WeakMap<object, z.output<S> | ConfigError>();
  return (env) => {
    let entry = cache.get(env);
    if (entry === undefined) {
      const result = schema.safeParse(env);
      entry = result.success ? result.data : ConfigError.fromZod(result.error);
      cache.set(env, entry);
    }
    if (entry instanceof ConfigError) throw entry;
    return entry as z.output<S>;
  };
}

/**
 * The config from `parse(env)`, or null after logging its `ConfigError` with `consequence`
 * (what happens instead) and running `onInvalid`. Other errors are rethrown.
 */
function configOr<C>(parse: ConfigParser<C>, env: object, consequence: string, onInvalid: () => void = () => {}): C | null {
  try {
    return parse(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    logError(`worker configuration is invalid; ${consequence}`, { problems: err.message });
    onInvalid();
    return null;
  }
}

/**
 * The config of a queue batch, or null after logging the `ConfigError` and retrying the whole
 * batch (nothing is lost: the messages come back once the variables are fixed).
 */
export function configOrRetry<C>(parse: ConfigParser<C>, env: object, batch: MessageBatch<unknown>): C | null {
  return configOr(parse, env, "batch will be retried", () => batch.retryAll());
}

/**
 * The config of a scheduled run, or null after logging the `ConfigError` (the next run tries again).
 */
export function configOrLog<C>(parse: ConfigParser<C>, env: object): C | null {
  return configOr(parse, env, "scheduled run skipped");
}

/**
 * Checks the variables of a wrangler config (its `vars`, strings) against a worker's schema,
 * before `npm run dev` or `npm run deploy` starts anything: only the variables present are
 * checked (secrets and bindings come from elsewhere). Throws `ConfigError`.
 */
export function checkVars(schema: z.ZodObject, vars: Record<string, unknown>): void {
  const present = Object.fromEntries(
    Object.keys(vars)
      .filter((k) => k in schema.shape)
      .map((k) => [k, true as const]),
  );
  const result = schema.pick(present as Record<string, true>).safeParse(vars);
  if (!result.success) throw ConfigError.fromZod(result.error);
}
