/**
 * The reveal audit of one request (issue 26.5): who showed its personal data unmasked, when, and
 * which fields. The server sends `reveals` to owners and admins only (absent for others), so
 * this renders nothing for viewers and members.
 */
import type { PiiReveal } from "../../../../server/contract";
import { when } from "../../../components/ui";

/** Labels of the fields a reveal shows. */
const FIELD_LABELS: Record<string, string> = {
  request_body: "prompt",
  response_body: "completion",
  metadata: "metadata",
  model: "model",
  provider: "provider",
};

/** The list of reveals, newest first; nothing when `reveals` is undefined. */
export function RevealAudit({ reveals }: { reveals: PiiReveal[] | undefined }) {
  if (!reveals) return null;
  return (
    <section aria-labelledby="reveals-title" className="space-y-1">
      <h3 id="reveals-title" className="font-semibold">
        Personal data reveals
      </h3>
      {reveals.length === 0 ? (
        <p className="text-zinc-700 dark:text-zinc-300">Nobody has revealed this request's personal data.</p>
      ) : (
        <ul className="space-y-1">
          {reveals.map((r) => (
            <li key={r.id} className="text-zinc-700 dark:text-zinc-300">
              <span className="font-medium text-zinc-900 dark:text-zinc-100">{r.revealed_by}</span> revealed{" "}
              {r.fields
                .filter((f) => f.endsWith("_body") || f === "metadata")
                .map((f) => FIELD_LABELS[f] ?? f)
                .join(", ")}{" "}
              on <time dateTime={r.revealed_at}>{when(r.revealed_at)}</time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
