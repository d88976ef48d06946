/**
 * What every benchmark record of bench/ingest shares: a gpt-4o-mini chat call through OpenAI
 * with 180 prompt and 95 completion tokens, costing $0.0000855 (POST /internal/log fields).
 */
export const CHAT_CALL = {
  model: "gpt-4o-mini",
  provider: "openai",
  prompt_tokens: 180,
  completion_tokens: 95,
  cost_usd: 0.0000855,
};
