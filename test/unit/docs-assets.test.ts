/**
 * The Swagger UI files served by the API worker at /docs are the pinned swagger-ui-dist
 * package's own files (public/docs/README.md): byte for byte, at the exact version in
 * package.json.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve("swagger-ui-dist/package.json"));
const served = join(import.meta.dirname, "../../public/docs/swagger-ui-dist");

describe("Pinned Swagger UI assets", () => {
  it("Should pin swagger-ui-dist to an exact version", () => {
    const ours = JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8")) as { devDependencies: Record<string, string> };
    const pinned = ours.devDependencies["swagger-ui-dist"];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect((JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { version: string }).version).toBe(pinned);
  });

  it("Should serve byte-identical copies of the installed package's files", () => {
    for (const file of ["swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "NOTICE"])
      expect(readFileSync(join(served, file)).equals(readFileSync(join(pkgDir, file))), file).toBe(true);
  });
});
