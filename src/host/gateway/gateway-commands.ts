import type { DeclareCommandsPacket } from "../shared/declare-commands.js";
import type { Dialog } from "../shared/dialog.js";
import type { ProxiedPlayer } from "./proxied-player.js";

/** System's window for clients that draw server dialogs (1.21.6+). */
export interface GatewayWindow {
  /** The launcher added to the client's dialog registry while the configuration is relayed (quick actions, pause menu). */
  launcher(player: ProxiedPlayer): Dialog;
  /** A `custom_click_action` whose id is System's (`system:*`), as its frame: consumed, never relayed. Never throws. */
  click(player: ProxiedPlayer, frame: Buffer): void;
}

/**
 * System's commands at the gateway: its nodes in each player's command tree, and the command lines it
 * consumes instead of relaying them to the backend. The assistant's host facade is what implements it.
 */
export interface GatewayCommands {
  /** System's tree for this player (its root at node 0); undefined leaves the backend's tree as it is. */
  tree(player: ProxiedPlayer): DeclareCommandsPacket | undefined;
  /** Whether `line` (a command without its slash) is System's: then it never reaches the backend. */
  owns(line: string): boolean;
  /** Runs one of System's lines for the player; answers go through `player.sendChat`. Never throws. */
  run(player: ProxiedPlayer, line: string): void;
  /** The player entered PLAY (the backend's `login`; again after a re-configuration). Never throws. */
  join?(player: ProxiedPlayer): void;
  /** The window for 1.21.6+ clients; unset, they get chat cards only and every dialog packet is relayed. */
  readonly window?: GatewayWindow;
  /** Replacements for the last space-separated word of one of System's lines (without its slash). */
  complete?(player: ProxiedPlayer, line: string): Promise<readonly string[]>;
}
