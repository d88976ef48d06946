/** The catalogue the stand-in's tests start it with. */
import type { StandInPrice } from "../src/server.ts";

/**
 * Two monthly prices, Pro at $49 and Team at $199 (amounts in cents), with ids
 * `price_<suite>_pro` and `price_<suite>_team` so each test file has its own.
 */
export const proAndTeamPrices = (suite: string): StandInPrice[] => [
  { id: `price_${suite}_pro`, unitAmount: 4900, nickname: "Pro" },
  { id: `price_${suite}_team`, unitAmount: 19900, nickname: "Team" },
];
