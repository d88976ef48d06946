/** Version of this package (kept equal to package.json by the release process). */
export const VERSION = "0.1.0";

/** Value of `metadata.sdk` in every record, and of the `User-Agent` header. */
export const SDK_NAME = `sightline-js/${VERSION}`;
