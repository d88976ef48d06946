/**
 * /docs works offline: the page references only same-origin files, and the worker's static
 * assets serve them (the pinned swagger-ui-dist copies of public/docs/). Deployed, and under
 * `wrangler dev`, Cloudflare serves a path found in public/ before the worker runs.
 */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { api } from "./helpers";

/** The static asset server of wrangler.jsonc's "assets" (in front of the worker when deployed). */
const assets = (env as unknown as { ASSETS: Fetcher }).ASSETS;

describe("/docs without internet access", () => {
  it("Should load only same-origin scripts and styles, and serve them", async () => {
    const res = await api("/docs");
    expect(res.status).toBe(200);
    const html = await res.text();
    const refs = [...html.matchAll(/<(?:script|link)[^>]*(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.sort()).toEqual(["/docs/swagger-ui-dist/swagger-ui-bundle.js", "/docs/swagger-ui-dist/swagger-ui.css"]);
    expect(html).not.toMatch(/https?:\/\//);
    for (const ref of refs) {
      const asset = await assets.fetch(`http://api.test${ref}`);
      expect(asset.status, ref).toBe(200);
      const text = await asset.text();
      expect(text.length, ref).toBeGreaterThan(100_000);
      if (ref.endsWith(".js")) expect(text).toContain("SwaggerUIBundle");
    }
  });
});
