/**
 * For the browser's typecheck only (tsconfig.app.json): the browser imports the server app's type
 * (`DashboardApp`, src/lib/api.ts), so tsc reads the server's and the API's source beside the DOM
 * library, with the Workers globals (worker-configuration.d.ts). Where the two libraries declare
 * one global differently the DOM's wins; this restores the Workers method the API calls.
 * Nothing here reaches the bundle.
 */
interface SubtleCrypto {
  /** Workers' constant-time comparison of two equal-length buffers (src/auth/secret.ts). */
  timingSafeEqual(a: ArrayBuffer | ArrayBufferView, b: ArrayBuffer | ArrayBufferView): boolean;
}
