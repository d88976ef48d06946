/**
 * Input validation of the dashboard server's routes with `@hono/zod-validator`, with the API's
 * answers: an invalid field is 422 naming it (the API's own `validationHook`);
 * a malformed id in the path is 404, as an unknown one (nothing to find under a non-id);
 * malformed JSON is 400 (Hono's validator, rendered by `renderError`).
 */
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import { z } from "zod";
import { notFound } from "../../../src/http/errors";
import { validationHook } from "../../../src/http/validation";

/** Validates `target` (json, query...) against `schema`; 422 naming the first fields that fail (`validationHook`). */
export function validate<T extends keyof ValidationTargets, S extends z.ZodType>(target: T, schema: S) {
  return zValidator(target, schema, validationHook);
}

/**
 * Validates the path parameters named in `ids` as UUIDs; anything else (NUL, traversal, SQL,
 * 2,000 characters, a uuid with a trailing letter) answers 404 `<what> not found`.
 */
export function validIds<const K extends string>(ids: Record<K, string>) {
  const shape = Object.fromEntries(Object.keys(ids).map((k) => [k, z.uuid()])) as Record<K, z.ZodUUID>;
  return zValidator("param", z.object(shape), (result) => {
    if (!result.success) {
      const field = String(result.error.issues[0]?.path[0] ?? "");
      throw notFound(ids[field as K] ?? "record");
    }
  });
}
