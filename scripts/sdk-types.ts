/** `npm run sdk:types`: rewrites the JS client library's copy of the ingest contract's type (scripts/lib/sdk-types.ts). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderSdkTypes, SDK_TYPES_FILE } from "./lib/sdk-types";
import { ROOT } from "./lib/postgres";

writeFileSync(join(ROOT, SDK_TYPES_FILE), renderSdkTypes());
console.log(`wrote ${SDK_TYPES_FILE}`);
