/**
 * Shapes of the request views: the dashboard's contract (dashboard/server/contract.ts, derived
 * from the API's response schemas), under the names this feature uses.
 */
import type { RequestDetail, RequestListItem, ScoreChip } from "../../../server/contract";

/** One score of a list row. */
export type Chip = ScoreChip;
/** A row of the list (no bodies). */
export type Row = RequestListItem;
/** A request with bodies, scores and (asked for) its neighbours in the filtered list. */
export type Detail = RequestDetail;
/** A score of the detail, with its review. */
export type Score = RequestDetail["safety_scores"][number];
