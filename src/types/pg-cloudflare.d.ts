/**
 * Types of pg-cloudflare's ESM entry (the package ships declarations only for its CJS build,
 * which its export map hides behind the "workerd" condition).
 */
declare module "pg-cloudflare" {
  import { EventEmitter } from "node:events";

  /** pg's socket over the Workers `connect()` API (`cloudflare:sockets`). */
  export class CloudflareSocket extends EventEmitter {
    /** `ssl`: true to start TLS with STARTTLS after the Postgres SSLRequest. */
    constructor(ssl: boolean);
    end(...args: unknown[]): this;
  }
}
