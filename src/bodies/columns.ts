/**
 * Where a stored call's bodies are: the `llm_requests` columns every read of bodies selects
 * (`storedBodyColumns`) and their row shape (`StoredBodies`), read by ./read.ts.
 */
import { llmRequests } from "../db/schema";

/** The columns that locate a call's two bodies (inline values, or the R2 object and byte ranges). */
export const storedBodyColumns = {
  request_body: llmRequests.request_body,
  response_body: llmRequests.response_body,
  body_key: llmRequests.body_key,
  request_body_offset: llmRequests.request_body_offset,
  request_body_length: llmRequests.request_body_length,
  response_body_offset: llmRequests.response_body_offset,
  response_body_length: llmRequests.response_body_length,
};

/**
 * A call's bodies as stored: each inline (`request_body` / `response_body`, the JSON value) or,
 * when its `_length` is set, the gzip member at `_offset` (bytes) of R2 object `body_key`.
 */
export interface StoredBodies {
  request_body: unknown;
  response_body: unknown;
  body_key: string | null;
  request_body_offset: number | null;
  request_body_length: number | null;
  response_body_offset: number | null;
  response_body_length: number | null;
}

/** Pointer columns of `StoredBodies` (dropped once the bodies are read). */
export type BodyPointer = Exclude<keyof StoredBodies, "request_body" | "response_body">;

/** A body's pointer: the gzip member at `offset` of `length` bytes, or null when inline. */
export interface Segment {
  offset: number;
  length: number;
}
