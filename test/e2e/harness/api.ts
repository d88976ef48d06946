/**
 * A small client of the running stack's HTTP API for the e2e tests and the benchmark:
 * JSON calls with the project key, and polling with a deadline (never a latency assertion).
 */

/** The six scorers every stored call gets a row from (docs/interface.md section 1.3). */
export const SCORERS = ["content_safety", "data_poisoning", "jailbreak_detection", "pii_detection", "unbounded_consumption", "vector_weakness"] as const;

/** One row of `safety_scores` as the API shows it. */
export interface Score {
  id: string;
  request_id: string;
  scorer_name: string;
  score_value: number | null;
  score_label: "safe" | "unsafe" | "unscored";
  rationale: string;
}

/** `GET /api/requests/{id}`. */
export interface RequestDetail {
  id: string;
  model: string;
  provider: string;
  prompt_tokens: number;
  completion_tokens: number;
  scoring_state: string;
  request_body: any;
  response_body: any;
  metadata: Record<string, any>;
  safety_scores: Score[];
}

/** An item of `GET /api/requests`. */
export type RequestItem = Omit<RequestDetail, "safety_scores" | "request_body" | "response_body">;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls `fn` every `intervalMs` until it returns something other than undefined. */
export async function poll<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${last})` : ""}`);
    await sleep(intervalMs);
  }
}

/** The stack's API as one project's key sees it. */
export class StackApi {
  constructor(
    readonly baseUrl: string,
    readonly key: string,
  ) {}

  /** GET `path` as JSON; throws with the status and body on a non-2xx answer. */
  async get<T = any>(path: string): Promise<T> {
    const res = await fetch(this.baseUrl + path, { headers: { "X-Service-Key": this.key, Accept: "application/json" } });
    const text = await res.text();
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  }

  /** POST /internal/log; resolves with the status and the JSON answer. */
  async log(record: object): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.baseUrl}/internal/log`, {
      method: "POST",
      headers: { "X-Service-Key": this.key, "Content-Type": "application/json" },
      body: JSON.stringify(record),
    });
    return { status: res.status, body: await res.json() };
  }

  /** Ids of every request of the project (all pages). */
  async requestIds(): Promise<Set<string>> {
    const ids = new Set<string>();
    for (let page = 1; ; page++) {
      const { items, total } = await this.get<{ items: RequestItem[]; total: number }>(`/api/requests?page_size=200&page=${page}`);
      for (const item of items) ids.add(item.id);
      if (items.length === 0 || ids.size >= total) return ids;
    }
  }

  /** Waits until the project has `count` requests not in `before`; returns their details. */
  async newRequests(before: Set<string>, count: number, timeoutMs = 60_000): Promise<RequestDetail[]> {
    const ids = await poll(
      `${count} new requests`,
      async () => {
        const fresh = [...(await this.requestIds())].filter((id) => !before.has(id));
        return fresh.length >= count ? fresh : undefined;
      },
      timeoutMs,
    );
    // The demo key is an owner's (all scopes): `reveal=true` reads the stored text as stored (each
    // read audited), as the tests compare it with what was sent; without it a key reads it masked.
    return Promise.all(ids.map((id) => this.get<RequestDetail>(`/api/requests/${id}?reveal=true`)));
  }

  /** Waits until request `id` shows six safety scores; returns its detail. */
  scored(id: string, timeoutMs = 60_000): Promise<RequestDetail> {
    return poll(
      `six scores for ${id}`,
      async () => {
        const detail = await this.get<RequestDetail>(`/api/requests/${id}`);
        return detail.safety_scores.length >= SCORERS.length ? detail : undefined;
      },
      timeoutMs,
    );
  }
}
