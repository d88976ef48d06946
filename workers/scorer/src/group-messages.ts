/**
 * Groups a queue batch's messages by the id their body names, so that one query serves the
 * batch and a redelivered duplicate is settled together with its twin. A message whose body is
 * not a job of the expected kind is logged (by id, never its body) and acked: retrying it
 * cannot make it valid.
 */
import { logWarn } from "../../../src/logger";

/**
 * Messages of `messages` keyed by `idOf(body)` lower-cased (UUIDs arrive in either case).
 * `kind` names the job in the warning, e.g. "scoring job".
 */
export function groupMessagesById<T>(
  messages: readonly Message<unknown>[],
  isJob: (body: unknown) => body is T,
  idOf: (job: T) => string,
  kind: string,
): Map<string, Message<unknown>[]> {
  const groups = new Map<string, Message<unknown>[]>();
  for (const msg of messages) {
    if (!isJob(msg.body)) {
      logWarn(`malformed ${kind} dropped`, { message_id: msg.id });
      msg.ack();
      continue;
    }
    const id = idOf(msg.body).toLowerCase();
    groups.set(id, [...(groups.get(id) ?? []), msg]);
  }
  return groups;
}
