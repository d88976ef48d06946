/**
 * The validation hook of the Hono kit (src/http/): a failed zod validation answers 422
 * `{"detail": ...}` naming the fields. Used by every `OpenAPIHono` of the API
 * (workers/api/src/routes/openapi.ts) and by the dashboard's server
 * (dashboard/server/lib/validate.ts), and `describeIssues` by OTLP ingest.
 */
import type { Context } from "hono";

/** Formats zod issues as `field: message; field: message` so the caller sees which field is wrong. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.map(String).join(".") : "body"}: ${i.message}`)
    .join("; ");
}

/**
 * The one validation hook of the API (every `OpenAPIHono`: the app and each router) and of the
 * dashboard's server (dashboard/server/lib/validate.ts): a failed validation answers 422
 * `{detail}` naming the fields; a success passes on.
 */
export function validationHook(
  result: { success: true } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } },
  c: Context,
) {
  if (!result.success) return c.json({ detail: describeIssues(result.error.issues) }, 422);
}
