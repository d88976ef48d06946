/**
 * The measurements of `npm run bench:scale` again, without seeding: against the database and
 * local R2 a previous run left (./kept-stack.ts; BENCH_SAMPLES as for the run), with the API
 * worker bundled from the current code, so a change can be measured at 5M calls in minutes
 * instead of a 40-minute seed. Prints the routes and exports as tables; writes nothing.
 * `npx tsx bench/scale/remeasure.ts`.
 */
import { startKeptStack } from "./kept-stack";
import { measureExports, measureRoutes } from "./measure";

const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const stack = await startKeptStack();
try {
  const target = { ...stack, samples: Number(process.env.BENCH_SAMPLES ?? 30), log };
  const routes = await measureRoutes(stack.pool, target);
  const exports = await measureExports(target);
  console.log(
    [
      "",
      "| Route | p50 ms | p95 ms | rows |",
      "|---|---:|---:|---:|",
      ...routes.map((r) => `| ${r.name} | ${r.p50_ms.toFixed(1)} | ${r.p95_ms.toFixed(1)} | ${r.rows ?? ""} |`),
    ].join("\n"),
  );
  console.log(
    [
      "",
      "| Export | rows | seconds | rows/s | MB |",
      "|---|---:|---:|---:|---:|",
      ...exports.map((e) => `| ${e.name} | ${e.rows} | ${e.seconds.toFixed(1)} | ${e.rows_per_s.toFixed(0)} | ${e.mb.toFixed(1)} |`),
    ].join("\n"),
  );
} finally {
  await stack.stop();
}
