/**
 * Bodies of alert events. The Standard Webhooks shape is `{type, timestamp, data}`
 * (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md,
 * "Payload structure"); Slack endpoints get an incoming-webhook message instead, `{text, blocks}`
 * (https://api.slack.com/messaging/webhooks). Neither carries request or response bodies: only
 * the score, its rationale (which names the evidence without copying it, DESIGN "Scores"), ids,
 * and the model name masked (`scoreUnsafeEvent`).
 */
import type { AlertEventType, AlertFormat, ScoreLabel, ScorerName } from "../enums";
import { maskPiiText } from "../pii/mask";

/** Event type of an alert on a qualifying score (one of `ALERT_EVENT_TYPES`). */
export const SCORE_UNSAFE = "score.unsafe" satisfies AlertEventType;
/** Event type of POST /api/webhooks/{id}/test (one of `ALERT_EVENT_TYPES`). */
export const WEBHOOK_TEST = "webhook.test" satisfies AlertEventType;

/** `data` of a `score.unsafe` event. */
export interface ScoreUnsafeData {
  request_id: string;
  project_id: string;
  scorer_name: ScorerName;
  /** Likert 1..5. */
  score_value: number | null;
  score_label: ScoreLabel;
  rationale: string;
  /** The call's model, masked by `maskPiiText` (a caller-chosen name may hold an address: `ft:gpt-4o:jane@example.com:bot`). */
  model: string;
  /** When the score was made, ISO-8601 UTC. */
  created_at: string;
  /** The request in the dashboard, or null when DASHBOARD_URL is not configured. */
  dashboard_url: string | null;
}

/** `data` of a `webhook.test` event. */
export interface WebhookTestData {
  project_id: string;
  endpoint_id: string;
  message: string;
}

/** One event to send. */
export type AlertEvent = { type: typeof SCORE_UNSAFE; data: ScoreUnsafeData } | { type: typeof WEBHOOK_TEST; data: WebhookTestData };

/**
 * The `score.unsafe` event of `data`, its model name masked by the one masker of stored text
 * (src/pii/mask.ts; issue 32.7): no personal data travels in an alert (docs/webhooks.md).
 */
export function scoreUnsafeEvent(data: ScoreUnsafeData): AlertEvent {
  return { type: SCORE_UNSAFE, data: { ...data, model: maskPiiText(data.model) } };
}

/** Link to a request's detail in the dashboard (its Requests page with the drawer open). */
export function dashboardLink(base: string, projectId: string, requestId: string): string | null {
  return base ? `${base}/p/${projectId}/requests?open=${requestId}` : null;
}

/** Slack's mrkdwn needs `&`, `<` and `>` escaped (https://api.slack.com/reference/surfaces/formatting#escaping). */
const slackEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function slackMessage(event: AlertEvent): { text: string; blocks: unknown[] } {
  if (event.type === WEBHOOK_TEST) {
    const text = `Sightline test alert: this endpoint receives alerts of project ${event.data.project_id}.`;
    return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text: slackEscape(text) } }] };
  }
  const d = event.data;
  const text = `Sightline: ${d.scorer_name} scored ${d.score_value}/5 (${d.score_label}) on a ${d.model} call`;
  const link = d.dashboard_url ? ` <${d.dashboard_url}|Open in Sightline>` : "";
  return {
    text,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*${slackEscape(text)}*${link}` } },
      { type: "section", text: { type: "mrkdwn", text: slackEscape(d.rationale).slice(0, 2900) } },
      { type: "context", elements: [{ type: "mrkdwn", text: slackEscape(`request ${d.request_id} · project ${d.project_id} · ${d.created_at}`) }] },
    ],
  };
}

/** The JSON body sent for `event` in `format`, `timestamp` being the event's time. */
export function eventBody(event: AlertEvent, format: AlertFormat, timestamp: Date): string {
  if (format === "slack") return JSON.stringify(slackMessage(event));
  return JSON.stringify({ type: event.type, timestamp: timestamp.toISOString(), data: event.data });
}
