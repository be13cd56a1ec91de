import type { SquidPlayer, SquidServer } from "./flying-squid-types.js";

/** The 1.20.5+ login `worldState` (SpawnInfo), as the registry's login packet holds it. */
interface SpawnInfo {
  readonly dimension: number;
  readonly name: string;
  readonly [field: string]: unknown;
}

/** What the respawn repair reads of the server beyond the typed surface. */
interface RespawningServer {
  readonly overworld: unknown;
  readonly registry: {
    readonly loginPacket?: {
      readonly worldState?: SpawnInfo;
      readonly dimensionCodec?: Record<string, { readonly entries?: readonly { readonly key: string }[] }>;
    };
  };
  readonly netherworld: unknown;
}

/** What it reads and calls of a player (flying-squid's respawn, health and position plugins). */
interface RespawningPlayer {
  readonly world: unknown;
  readonly health: number;
  position?: unknown;
  readonly spawnPoint?: { clone(): unknown };
  changeWorld?: (world: unknown, options: { readonly dimension: number }) => Promise<void>;
  readonly gameMode: number;
  readonly prevGameMode?: number;
  _sendRespawn?: (difficulty?: number, gameMode?: number, dimension?: number) => void;
  behavior?: (name: string, data: object, action: () => Promise<void>) => Promise<unknown>;
  sendSelfPosition?: () => void;
  updateHealth?: (health: number) => void;
  updateAndSpawn?: () => void;
  nearbyEntities?: unknown[];
}

const GAME_MODES = ["survival", "creative", "adventure", "spectator"] as const;

/**
 * The respawn packet for 1.20.5+ clients: the world in a `worldState` (SpawnInfo) whose dimension is the index of
 * its type in the dimension-type registry sent at login. flying-squid writes the pre-1.20.2 flat shape, which
 * does not encode, so `/changeworld` disconnected the player. Undefined for versions this does not apply to.
 */
export const respawnPacket = (
  serv: Pick<RespawningServer, "registry" | "netherworld">,
  player: RespawningPlayer,
  options: { readonly gameMode?: number; readonly dimension?: number } = {},
): Record<string, unknown> | undefined => {
  const login = serv.registry.loginPacket;
  const state = login?.worldState;
  if (state === undefined || typeof state.dimension !== "number") return undefined;
  const nether =
    options.dimension === undefined ? player.world === serv.netherworld : options.dimension === -1;
  const name = nether ? "minecraft:the_nether" : "minecraft:overworld";
  const types = login?.dimensionCodec?.["minecraft:dimension_type"]?.entries ?? [];
  const index = types.findIndex((entry) => entry.key === name);
  const gameMode = options.gameMode ?? player.gameMode;
  return {
    worldState: {
      ...state,
      dimension: index < 0 ? state.dimension : index,
      name,
      gamemode: GAME_MODES[gameMode] ?? "survival",
      previousGamemode: player.prevGameMode ?? 255,
      portalCooldown: 0,
    },
    copyMetadata: 0,
  };
};

/**
 * Makes respawning work on 1.20.5+ clients, where flying-squid's respawn plugin fails twice: the client's
 * "perform_respawn" command arrives as a name (flying-squid waits for the number 0, so the Respawn button did
 * nothing and a dead player stayed dead), and its respawn packet does not encode. Only a dead player respawns,
 * once, at the overworld's spawn point (flying-squid left them where they died, in the void after a fall).
 * Other versions keep flying-squid's own behaviour.
 */
export const repairRespawn = (
  serv: SquidServer,
  squidPlayer: SquidPlayer,
  failed: (error: unknown) => void,
): void => {
  const server = serv as unknown as RespawningServer;
  const player = squidPlayer as unknown as RespawningPlayer;
  if (respawnPacket(server, player) === undefined) return;
  // flying-squid's respawn plugin sets `_sendRespawn` after external plugins ran; "asap" follows every plugin
  squidPlayer.once("asap", () => {
    player._sendRespawn = (_difficulty, gameMode, dimension) => {
      const packet = respawnPacket(server, player, {
        ...(gameMode === undefined ? {} : { gameMode }),
        ...(dimension === undefined ? {} : { dimension }),
      });
      if (packet !== undefined) squidPlayer._client.write("respawn", packet);
    };
  });
  let respawning = false;
  squidPlayer._client.on("client_command", (data: { actionId?: unknown }) => {
    // only the dead respawn, once: a client repeating the command must not heal itself
    if (data.actionId !== "perform_respawn" || player.health > 0 || respawning) return;
    respawning = true;
    const respawn = async (): Promise<void> => {
      // as vanilla: back at the overworld's spawn point, wherever the player died
      if (player.world !== server.overworld && player.changeWorld !== undefined) {
        // changeWorld writes the respawn packet at once, then sends chunks and waits for the client to move:
        // the health follows the respawn, and the rest of the travel is not waited for
        player.changeWorld(server.overworld, { dimension: 0 }).catch(failed);
        player.updateHealth?.(20);
        return;
      }
      if (player.spawnPoint !== undefined) player.position = player.spawnPoint.clone();
      player._sendRespawn?.();
      player.sendSelfPosition?.();
      player.updateHealth?.(20);
      player.nearbyEntities = [];
      player.updateAndSpawn?.();
    };
    // behind flying-squid's cancellable behaviour, as its own respawn for action 0
    const run = player.behavior === undefined ? respawn() : player.behavior("requestRespawn", {}, respawn);
    Promise.resolve(run)
      .catch(failed)
      .finally(() => {
        respawning = false;
      });
  });
};

/** The packets a client sends once it stands in a world it was moved into. */
const FIRST_MOVE_PACKETS = ["position", "position_look", "look", "flying"] as const;

/**
 * Makes flying-squid's "wait for the player to be in the world" end with the client's first movement packet of
 * any kind. flying-squid waits for a `flying` or `look` packet, which a client standing still with a steady look
 * need not send (a 1.21 mineflayer answers the spawn position with `position_look` only): until one came, the
 * rest of the chunks stayed unsent, and a world change (`/changeworld`, a respawn from the nether) ended whenever
 * it came by putting the player back at the spawn point, undoing a teleport made in between.
 */
export const repairFirstMoveWait = (squidPlayer: SquidPlayer): void => {
  const player = squidPlayer as unknown as { waitPlayerLogin?: () => Promise<void> };
  // login.js sets `waitPlayerLogin` before "asap" and first calls it after
  squidPlayer.once("asap", () => {
    player.waitPlayerLogin = () =>
      new Promise((resolve) => {
        const moved = (): void => {
          for (const name of FIRST_MOVE_PACKETS) squidPlayer._client.removeListener(name, moved);
          resolve();
        };
        for (const name of FIRST_MOVE_PACKETS) squidPlayer._client.on(name, moved);
      });
  });
};
