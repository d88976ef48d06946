/** Sightline API worker entry: wires the Hono app to the Workers runtime. */
import { createApp } from "./app";
import type { AppEnv } from "./env";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<AppEnv>;
