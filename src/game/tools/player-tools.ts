import { z } from "zod";
import { AgentException } from "../../agent/agent-exception.js";
import { Tool } from "../../agent/tool/tool.js";
import { ToolType } from "../../agent/tool/tool-type.js";
import { codec } from "../../util/codec.js";
import type { Identifier } from "../../util/identifier.js";
import type { GameBridge } from "../game-bridge.js";
import { PLAYER_STATS_SNAPSHOT } from "../game-snapshots.js";
import { GameFailures } from "./game-failures.js";

const infoOutput = z.object({ name: z.string(), stats: PLAYER_STATS_SNAPSHOT.schema });
export type PlayerInfoOutput = z.infer<typeof infoOutput>;

/** `system:player.info`: the asking player's stats snapshot (never another player's). */
export const PLAYER_INFO = ToolType.of("system:player.info", codec(z.object({})), codec(infoOutput));

/** The read-only player tool, declared for reasoning; offline players get PLAYER_OFFLINE. */
export const playerInfoTool = (options: {
  readonly bridge: GameBridge;
  readonly owner: Identifier;
}): Tool<Record<string, never>, PlayerInfoOutput> =>
  Tool.of(PLAYER_INFO, async (_input, scope) => {
    const stats = options.bridge.stats(scope.playerId);
    if (stats === undefined) throw new AgentException(GameFailures.playerOffline());
    return { name: options.bridge.playerName(scope.playerId) ?? scope.playerId, stats };
  })
    .asReadOnly()
    .ownedBy(options.owner)
    .forReasoning(
      "Read the asking player's health, food, experience, position, dimension, game mode and inventory summary.",
    );
