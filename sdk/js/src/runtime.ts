/**
 * The few host facilities the library uses beyond the web platform (process env, exit
 * hooks), reached through `globalThis` so the package also loads in Cloudflare Workers,
 * Deno, Bun and browsers, where they may be missing.
 */

interface NodeLikeProcess {
  env?: Record<string, string | undefined>;
  on?: (event: string, listener: (...args: unknown[]) => void) => unknown;
  off?: (event: string, listener: (...args: unknown[]) => void) => unknown;
}

/** The Node.js `process` object, or `undefined` outside Node-compatible runtimes. */
export function nodeProcess(): NodeLikeProcess | undefined {
  const p = (globalThis as { process?: NodeLikeProcess }).process;
  return typeof p === "object" && p !== null ? p : undefined;
}

/** Environment variables (`process.env`), or an empty object when there is none. */
export function env(): Record<string, string | undefined> {
  try {
    return nodeProcess()?.env ?? {};
  } catch {
    return {};
  }
}

/** A timer that does not keep a Node.js process alive (`unref`), where supported. */
export function unrefTimer(handle: unknown): void {
  const t = handle as { unref?: () => void } | undefined;
  if (t && typeof t.unref === "function") t.unref();
}

/** Milliseconds from a monotonic clock (`performance.now()`, falling back to `Date.now()`). */
export const now: () => number = typeof performance !== "undefined" && typeof performance.now === "function" ? () => performance.now() : () => Date.now();

/**
 * Calls `fn` with `self` and `args` exactly as the application called it; when it throws,
 * `failed` sees the error first, then the same object is rethrown to the application.
 */
export function applyReporting(fn: unknown, self: unknown, args: unknown[], failed: (error: unknown) => void): unknown {
  try {
    return (fn as (...a: unknown[]) => unknown).apply(self, args);
  } catch (error) {
    failed(error);
    throw error;
  }
}
