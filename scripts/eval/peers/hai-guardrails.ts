/**
 * `@presidio-dev/hai-guardrails` (npm): injection and leakage guards in `pattern` mode and the
 * PII guard, each in a `GuardrailsEngine` run on one user message; `passed: false` flags it.
 *
 * Version 1.12.0 as published starts a worker pool (piscina, for its `heuristic` mode) whose
 * worker file path is the package's build machine's, so each pool worker fails to load and the
 * pool raises an uncaught error that would end this process; `tolerateBrokenPool` ignores
 * exactly that error (and only it). The heuristic mode cannot run.
 */
import { GuardrailsEngine, injectionGuard, leakageGuard, piiGuard, type Guard } from "@presidio-dev/hai-guardrails";
import type { Peer, PeerCheck } from "./types";
import { installedVersion } from "./version";

/** True for the worker-load failure of the package's heuristic pool. */
const brokenPool = (err: unknown) => err instanceof Error && /piscina[\\/]dist[\\/]worker\.js/.test(err.message);

let tolerating = false;

/** Keeps the process alive through the package's broken heuristic pool; any other uncaught error still ends it. */
function tolerateBrokenPool(): void {
  if (tolerating) return;
  tolerating = true;
  process.on("uncaughtException", (err) => {
    if (brokenPool(err)) return;
    console.error(err);
    process.exit(1);
  });
}

function check(what: string, guards: Guard[]): PeerCheck {
  const engine = new GuardrailsEngine({ guards, logLevel: "silent" });
  return {
    what,
    flags: async (text) => {
      const run = await engine.run([{ role: "user", content: text }]);
      return run.messagesWithGuardResult.some((g) => g.messages.some((m) => !m.passed));
    },
  };
}

/** The hai-guardrails peer: injection + leakage (pattern) beside jailbreak_detection, injection on documents, PII. */
export function haiGuardrailsPeer(): Peer {
  tolerateBrokenPool();
  const pattern = { mode: "pattern" as const, threshold: 0.7 };
  return {
    name: "@presidio-dev/hai-guardrails",
    version: installedVersion("@presidio-dev/hai-guardrails"),
    checks: {
      jailbreak_detection: check("injectionGuard + leakageGuard, pattern, threshold 0.7", [
        injectionGuard({ roles: ["user"] }, pattern),
        leakageGuard({ roles: ["user"] }, pattern),
      ]),
      pii_detection: check("piiGuard (redact mode: a redaction flags)", [piiGuard({ roles: ["user"] })]),
      vector_weakness: check("injectionGuard, pattern, threshold 0.7", [injectionGuard({ roles: ["user"] }, pattern)]),
    },
    notRun: [
      "heuristic mode of injectionGuard and leakageGuard: its worker pool cannot load in 1.12.0 as published (worker path of the build machine)",
      "toxicGuard, hateSpeechGuard, biasDetectionGuard, adultContentGuard, copyrightGuard, profanityGuard and the language-model modes: LLM-judged (a chat model each call)",
    ],
  };
}
