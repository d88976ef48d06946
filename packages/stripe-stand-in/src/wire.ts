/**
 * Stripe's wire format, server side, for the local stand-in: request bodies are
 * `application/x-www-form-urlencoded` with bracketed keys (`line_items[0][price]=price_x`,
 * `metadata[project_id]=...`), responses are JSON, and errors are
 * `{"error": {"type", "code", "message", "param", "doc_url"}}` with the HTTP status Stripe uses
 * (https://docs.stripe.com/api/errors). No Node APIs.
 */

/** A decoded form value: strings, nested objects and arrays (from `[0]`, `[1]`... keys). */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

/** Splits `a[b][0]` into `["a", "b", "0"]`. */
function keyPath(key: string): string[] {
  const head = key.split("[", 1)[0]!;
  const rest = [...key.slice(head.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!);
  return [head, ...rest];
}

/** Objects whose keys are all 0..n-1 become arrays (Stripe's indexed array encoding). */
function arrays(value: FormValue): FormValue {
  if (typeof value === "string" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted = Object.fromEntries(keys.map((k) => [k, arrays(value[k]!)]));
  const isList = keys.length > 0 && keys.every((k, i) => k === String(i));
  return isList ? keys.map((k) => converted[k]!) : converted;
}

/** Decodes a Stripe request body (or query string) into nested values. */
export function parseForm(body: string): Record<string, FormValue> {
  const root: Record<string, FormValue> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = keyPath(key);
    let node: Record<string, FormValue> = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, FormValue>;
    });
  }
  return arrays(root) as Record<string, FormValue>;
}

/** A Stripe API error: HTTP status and the `error` object of the envelope. */
export class StripeWireError extends Error {
  readonly status: number;
  readonly type: "invalid_request_error" | "idempotency_error" | "api_error";
  readonly code: string | undefined;
  readonly param: string | undefined;

  constructor(status: number, type: StripeWireError["type"], message: string, code?: string, param?: string) {
    super(message);
    this.status = status;
    this.type = type;
    this.code = code;
    this.param = param;
  }

  /** The response body: `{"error": {...}}`. */
  toJSON() {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.code ? { code: this.code, doc_url: `https://stripe.com/docs/error-codes/${this.code.replaceAll("_", "-")}` } : {}),
        ...(this.param ? { param: this.param } : {}),
      },
    };
  }
}

/** 404/400 `resource_missing`: "No such customer: 'cus_x'". */
export const noSuch = (what: string, id: string, param?: string) =>
  new StripeWireError(param ? 400 : 404, "invalid_request_error", `No such ${what}: '${id}'`, "resource_missing", param);

/** 400 `parameter_missing`. */
export const missingParam = (param: string) =>
  new StripeWireError(400, "invalid_request_error", `Missing required param: ${param}.`, "parameter_missing", param);

/** A string parameter of a decoded form, or undefined. */
export function str(params: Record<string, FormValue>, ...path: (string | number)[]): string | undefined {
  let node: FormValue | undefined = params;
  for (const part of path) {
    if (node === undefined || typeof node === "string") return undefined;
    node = Array.isArray(node) ? node[Number(part)] : node[String(part)];
  }
  return typeof node === "string" ? node : undefined;
}

/** A `metadata[...]` map of a decoded form. */
export function metadataOf(value: FormValue | undefined): Record<string, string> {
  if (!value || typeof value === "string" || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"));
}
