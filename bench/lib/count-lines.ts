/**
 * Reads a streamed HTTP response to its end without keeping it, counting its lines (LF bytes)
 * and bytes: how the dashboard benchmarks time an export of many MB.
 */
import http from "node:http";

/** What `countLines` saw: HTTP status, LF count, body bytes, wall milliseconds to the end. */
export interface CountedResponse {
  status: number;
  lines: number;
  bytes: number;
  ms: number;
}

/** GETs `url` over `agent` and counts the body's lines as it streams. Rejects on a socket error. */
export function countLines(agent: http.Agent, url: string, headers: Record<string, string>): Promise<CountedResponse> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        let lines = 0;
        let bytes = 0;
        res.on("data", (d: Buffer) => {
          bytes += d.length;
          for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, lines, bytes, ms: performance.now() - t0 }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}
