/**
 * What the bodies module needs of R2 (the `BODIES` binding, bucket `sightline-bodies`), and its
 * one error. Declared structurally, so Node tools that read stored calls without R2 (they pass
 * null) typecheck without the Workers types.
 */

/** The R2 bucket operations src/bodies/ uses: a whole-object put, a ranged get and a batch delete. */
export interface BodyBucket {
  put(key: string, value: Uint8Array<ArrayBuffer>, options: { httpMetadata: { contentType: string } }): Promise<unknown>;
  get(key: string, options: { range: { offset: number; length: number } }): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
  delete(keys: string[]): Promise<void>;
}

/** R2 could not take or give a body object (a write or read failed); the HTTP routes answer 503, the consumers retry. */
export class BodyStorageError extends Error {
  constructor(
    readonly key: string,
    cause: unknown,
  ) {
    super(`body storage failed for object ${key}`, { cause });
  }
}
