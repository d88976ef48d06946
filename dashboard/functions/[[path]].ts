/** Pages Functions entry: every /api request (public/_routes.json) goes to the Hono app. */
import { handle } from "hono/cloudflare-pages";
import { createDashboardApp } from "../server/app";
import type { DashboardBindings } from "../server/env";

export const onRequest = handle(createDashboardApp() as unknown as import("hono").Hono<DashboardBindings>);
