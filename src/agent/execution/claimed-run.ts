import type { Logger } from "../../util/logger.js";
import type { RunClaim, RunClaims } from "../storage/run-claims.js";

/**
 * Runs `run` under this server's claim of `runId` (servers sharing a journal), releasing it after. Nothing runs
 * while another server holds the claim, or while the claim cannot be taken (the database is unreachable): the
 * run stays as it is and is offered again later. Returns whether it ran.
 */
export const runClaimed = async (
  claims: RunClaims,
  runId: string,
  events: readonly string[],
  logger: Logger,
  run: (claim: RunClaim) => Promise<void>,
): Promise<boolean> => {
  let claim: RunClaim | undefined;
  try {
    claim = await claims.claim(runId, events);
  } catch (error) {
    logger.error(`${runId}: could not claim it`, error);
    return false;
  }
  if (claim === undefined) {
    logger.info(`${runId} is run by another server; left to it`);
    return false;
  }
  try {
    await run(claim);
    return true;
  } finally {
    await claim
      .release()
      .catch((error: unknown) => logger.warn(`${runId}: release failed: ${String(error)}`));
  }
};
