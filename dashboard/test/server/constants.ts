/** Dashboard bindings of the `dashboard-server` vitest project (workerd), on top of the API's. */
import { TEST_RETURN_ORIGIN } from "../../../test/setup/stripe-constants.ts";

export const DASHBOARD_TEST_BINDINGS = {
  BETTER_AUTH_SECRET: "test-better-auth-secret-".padEnd(48, "x"),
  // An allowed billing return origin of the API's test config, so checkout accepts our URLs.
  DASHBOARD_URL: TEST_RETURN_ORIGIN,
  PUBLIC_API_URL: "http://api.test",
  PUBLIC_PROXY_URL: "http://proxy.test",
};
