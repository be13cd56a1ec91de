import type { DeclareCommandsPacket } from "../shared/declare-commands.js";
import type { ProxiedPlayer } from "./proxied-player.js";

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
  /** Replacements for the last space-separated word of one of System's lines (without its slash). */
  complete?(player: ProxiedPlayer, line: string): Promise<readonly string[]>;
}
