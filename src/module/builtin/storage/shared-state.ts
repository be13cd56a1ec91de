import { ContextType } from "../../../agent/module/context-type.js";
import type { CheckInClaims } from "../../../data/player-state/check-in-claims.js";
import type { PointsAccounts } from "../../../data/player-state/points-accounts.js";

/**
 * Players' points as every feature changes them (points, check-in, shop, bonuses): the player files of this
 * server by default, a database shared by a network when `storage.json` names one.
 */
export const POINTS_ACCOUNTS = ContextType.of<PointsAccounts>("system:points_accounts");

/** Check-in days shared by a network; absent on one server, where the player files and the ledger file hold them. */
export const CHECK_IN_CLAIMS = ContextType.of<CheckInClaims>("system:check_in_claims");
