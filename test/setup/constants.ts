/** Internal secret used by the tests (64 hex characters, like a real one). */
export const TEST_INTERNAL_SECRET = "0123456789abcdef".repeat(4);
