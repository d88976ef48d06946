/**
 * Shared pieces of every route module: the `OpenAPIHono` factory whose `defaultHook` turns a
 * validation failure into 422 `{detail}`, the error schema, common error responses, security
 * requirements and the paged list envelope (docs/interface.md section 2.6).
 */
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppBindings } from "../env";

/** `{"detail": "..."}`: the body of every non-2xx response (docs/decisions.md D11). */
export const ErrorSchema = z.object({ detail: z.string().openapi({ example: "invalid API key" }) }).openapi("Error");

/** Formats zod issues as `field: message; field: message` so the caller sees which field is wrong. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.map(String).join(".") : "body"}: ${i.message}`)
    .join("; ");
}

/** A sub-app for one resource; validation errors answer 422 with the fields named. */
export function createRouter() {
  return new OpenAPIHono<AppBindings>({
    defaultHook: (result, c) => {
      if (!result.success) return c.json({ detail: describeIssues(result.error.issues) }, 422);
    },
  });
}

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorSchema } },
});

/** Error responses shared by the authenticated routes. */
export const commonErrors = {
  401: errorResponse("Missing, unknown, revoked or expired credentials"),
  422: errorResponse("Validation failed; `detail` names the fields"),
  503: errorResponse("The database is unavailable"),
} as const;

/** 404 response: unknown record or another project's record. */
export const notFoundResponse = { 404: errorResponse("No such record in this project") } as const;

/** Builds an error response entry for a route's `responses`. */
export { errorResponse };

/** Security requirement of routes open to an API key or to the dashboard's internal secret. */
export const projectSecurity: Record<string, string[]>[] = [{ ServiceKey: [] }, { BearerKey: [] }, { InternalSecret: [] }];

/** Security requirement of the administration routes. */
export const internalSecurity: Record<string, string[]>[] = [{ InternalSecret: [] }];

/** Largest `page_size` (docs/interface.md section 8). */
export const MAX_PAGE_SIZE = 200;

/** `page` (from 1) and `page_size` (default 50, max 200) query parameters. */
export const PaginationQuery = z.object({
  page: z.coerce.number().int().min(1).default(1).openapi({ description: "Page number, from 1", example: 1 }),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(50)
    .openapi({ description: `Records per page, 1 to ${MAX_PAGE_SIZE}`, example: 50 }),
});

/** `project_id`: implied by an API key; required with the internal secret. */
export const ProjectIdQuery = z.object({
  project_id: z
    .uuid()
    .optional()
    .openapi({ description: "Project id. Implied by an API key (must match if given); required with X-Internal-Secret." }),
});

/** ISO-8601 instant query parameter (start inclusive, end exclusive). */
export const isoInstant = (description: string) =>
  z.iso.datetime({ offset: true }).optional().openapi({ description, example: "2026-11-01T00:00:00Z" });

/** The paged list envelope (docs/interface.md section 2.6). */
export function pageOf<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      items: z.array(item),
      total: z.number().int().openapi({ description: "Total count of matching records" }),
      page: z.number().int(),
      page_size: z.number().int(),
    })
    .openapi(name);
}

/** A Date from Postgres as ISO-8601 text. */
export const iso = (d: Date) => d.toISOString();
