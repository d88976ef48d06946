/** Request body parsing with zod: malformed JSON answers 400, an invalid field 422, as the API does. */
import type { z } from "zod";
import type { Context } from "hono";
import { ApiError } from "../../../src/errors";

/** The JSON body of `c`, checked against `schema`. */
export async function jsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new ApiError(400, "malformed JSON in request body");
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ApiError(422, `${issue.path.join(".") || "body"}: ${issue.message}`);
  }
  return parsed.data;
}
