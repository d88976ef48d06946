/**
 * POST /internal/bodies/upkeep: one run of the body objects' upkeep now (src/upkeep/bodies.ts:
 * objects no call points to deleted from R2, then a bounded run of the move of inline bodies to
 * R2). Behind the internal secret (`access.internal()`). In production the scorer's cron runs
 * it; under `npm run dev` the second scorer session that takes the cron has an R2 of its own,
 * so the launcher calls this route on the API (whose R2 the bodies are in) every minute.
 */
import { z } from "@hono/zod-openapi";
import { runBodyUpkeep } from "../../../../src/upkeep/bodies";
import { access, commonErrors, createRouter, jsonResponse, routesTagged } from "./openapi";

const route = routesTagged("internal")("post", "/internal/bodies/upkeep", {
  ...access.internal(),
  summary: "Delete unreferenced body objects and move inline bodies to R2 (one bounded run)",
  responses: {
    200: jsonResponse(
      z
        .object({
          deleted: z.number().int().openapi({ description: "Body objects deleted from R2" }),
          walked: z.number().int().openapi({ description: "Calls the move to R2 walked (0: nothing left to move)" }),
        })
        .openapi("BodyUpkeepResult"),
      "What the run did",
    ),
    ...commonErrors,
  },
});

/** Registers POST /internal/bodies/upkeep. */
export const bodyUpkeepRoutes = createRouter().openapi(route, async (c) => {
  const result = await runBodyUpkeep(c.var.db, c.var.config.bodies, c.var.config.tierRetention);
  return c.json(result, 200);
});
