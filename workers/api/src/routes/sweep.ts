/**
 * POST /internal/sweep: run one sweep now (src/upkeep/sweep.ts): re-enqueue every request that has
 * waited for its scores longer than `older_than_seconds` (default 300). Behind the internal
 * secret (`access.internal()`). In production the scorer's cron runs the sweep every 2 minutes;
 * cron never fires under `wrangler dev`, so `npm run dev` calls this route every minute, and an
 * operator can call it after an outage.
 */
import { z } from "@hono/zod-openapi";
import { STALE_AFTER_SECONDS, sweep } from "../../../../src/upkeep/sweep";
import { createRouter, internalRoutesTagged, jsonResponse } from "./openapi";

const route = internalRoutesTagged("internal")("post", "/internal/sweep", {
  summary: "Re-enqueue requests waiting too long for their scores",
  request: {
    query: z.object({
      older_than_seconds: z.coerce
        .number()
        .int()
        .min(0)
        .max(7 * 86_400)
        .default(STALE_AFTER_SECONDS)
        .openapi({ description: `Seconds a request must have waited (default ${STALE_AFTER_SECONDS})` }),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ enqueued: z.number().int() }).openapi("SweepResult"), "Jobs re-enqueued"),
  },
});

/** Registers POST /internal/sweep. */
export const sweepRoutes = createRouter().openapi(route, async (c) => {
  const enqueued = await sweep(c.var.config, c.req.valid("query").older_than_seconds);
  return c.json({ enqueued }, 200);
});
