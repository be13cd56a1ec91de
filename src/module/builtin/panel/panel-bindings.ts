import { ContextType } from "../../../agent/module/context-type.js";

/** What `/system bind` shows: a one-time code and where to enter it. */
export interface BindingOffer {
  readonly code: string;
  readonly url: string;
  readonly minutes: number;
}

/**
 * The web panel's bindings, provided by a host that serves the panel (`npm start` does): one-time codes for
 * `/system bind`, and ending a player's bound browsers for `/system unbind`.
 */
export interface PanelBindings {
  offer(playerId: string): BindingOffer;
  /** Ends every panel session of the player (their open panels show REVOKED); returns how many. */
  unbind(playerId: string): Promise<number>;
}

export const PANEL_BINDINGS = ContextType.of<PanelBindings>("system:panel_bindings");
