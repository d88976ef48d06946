/**
 * Timing HTTP routes for the benchmarks: sequential GETs over one keep-alive connection
 * (node:http, lighter than fetch), 3 warm-up calls, then `samples` timed ones; p50 and p95 in ms.
 */
import http from "node:http";

/** The one keep-alive connection the measurements share. */
export const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** GET `url`: status, bytes read, the first 64 chunks of the body as text, and the wall time in ms. */
export function get(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number; body: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      const parts: Buffer[] = [];
      let bytes = 0;
      res.on("data", (d: Buffer) => {
        bytes += d.length;
        if (parts.length < 64) parts.push(d);
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes, body: Buffer.concat(parts).toString("utf8"), ms: performance.now() - t0 }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/** The `p`th percentile (0-100) of `xs` (nearest rank). */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** One route's timings: p50/p95 in ms, the rows of its first answer, and its p50 target (ms) or null. */
export interface RouteResult {
  name: string;
  path: string;
  p50_ms: number;
  p95_ms: number;
  rows: number | null;
  target_ms: number | null;
}

/** Times GET `base + path` `samples` times after 3 warm-up calls; throws on a status other than 200. */
export async function measureRoute(
  base: string,
  headers: Record<string, string>,
  route: { name: string; path: string; target_ms: number | null; rowsOf: (body: string) => number | null },
  samples: number,
  log: (msg: string) => void,
): Promise<RouteResult> {
  const times: number[] = [];
  let rows: number | null = null;
  for (let i = 0; i < samples + 3; i++) {
    const r = await get(base + route.path, headers);
    if (r.status !== 200) throw new Error(`${route.path}: ${r.status} ${r.body.slice(0, 300)}`);
    if (i >= 3) times.push(r.ms);
    if (i === 0) rows = route.rowsOf(r.body);
  }
  const result = { name: route.name, path: route.path, p50_ms: percentile(times, 50), p95_ms: percentile(times, 95), rows, target_ms: route.target_ms };
  log(`${route.name}: p50 ${result.p50_ms.toFixed(1)} ms, p95 ${result.p95_ms.toFixed(1)} ms${rows !== null ? `, ${rows} rows` : ""}`);
  return result;
}
