import type { UnconfirmedEvents } from "../../../agent/execution/unconfirmed-events.js";
import { ContextType } from "../../../agent/module/context-type.js";

/**
 * Durable deliveries whose effect could not be confirmed (a give interrupted by a crash), with the admin's two
 * resolutions. The assembly provides the EventExecutor, which holds those tasks UNCONFIRMED in the journal.
 */
export const DELIVERIES = ContextType.of<UnconfirmedEvents>("system:deliveries");
