/**
 * Groups a queue batch's messages by the ids their bodies name, so that one query serves the
 * batch and a redelivered duplicate is settled together with its twin. A message may name
 * several ids (a scoring-jobs message carries up to 100 calls) and then sits in each of their
 * groups. A message whose body is not a job of the expected kind is logged (by id, never its
 * body) and acked: retrying it cannot make it valid.
 */
import { logWarn } from "../../../src/logger";

/**
 * Messages of `messages` keyed by each id of `idsOf(body)`, lower-cased (UUIDs arrive in either
 * case); `idsOf` returns undefined for a malformed body. `kind` names the job in the warning,
 * e.g. "scoring job".
 */
export function groupMessagesById(
  messages: readonly Message<unknown>[],
  idsOf: (body: unknown) => readonly string[] | undefined,
  kind: string,
): Map<string, Message<unknown>[]> {
  const groups = new Map<string, Message<unknown>[]>();
  for (const msg of messages) {
    const ids = idsOf(msg.body);
    if (!ids) {
      logWarn(`malformed ${kind} dropped`, { message_id: msg.id });
      msg.ack();
      continue;
    }
    for (const id of new Set(ids.map((i) => i.toLowerCase()))) groups.set(id, [...(groups.get(id) ?? []), msg]);
  }
  return groups;
}
