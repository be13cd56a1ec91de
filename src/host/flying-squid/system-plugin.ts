import type { Languages } from "../../util/language.js";
import { normalizeLocale } from "../../util/language.js";
import type { Logger } from "../../util/logger.js";
import type { ChatComponent } from "../shared/chat-component.js";
import type { HostHandler } from "../shared/host-handler.js";
import { repairEntityTeleport } from "./entity-teleport.js";
import type { SquidClient, SquidPlayer, SquidPlugin, SquidServer } from "./flying-squid-types.js";
import { dimensionOf, SquidHostPlayer } from "./host-player.js";
import { legacyComponent } from "./legacy-text.js";
import { emptyCommandsPacket, withPlainCommands } from "./plain-commands.js";
import { repairFirstMoveWait, repairRespawn } from "./respawn.js";
import { repairSummon } from "./summon.js";
import { installTabComplete } from "./tab-complete.js";

/** 1.19: the first protocol whose `declare_commands` layout the builder writes. */
const DECLARE_COMMANDS_PROTOCOL = 759;

/** Options of the System plugin inside flying-squid. */
export interface SystemPluginOptions {
  readonly handler: HostHandler;
  /** Command bases forwarded to the handler besides `system` (module shortcuts such as `reason`). */
  readonly shortcuts: readonly string[];
  /** Player names made operators when they join. */
  readonly ops: readonly string[];
  /**
   * Set when operators must prove who they are (offline mode off loopback): a listed operator gets the game's own
   * operator commands only once this says so. Unset: the ops list is trusted as it is.
   */
  readonly operatorVerified?: ((uuid: string) => boolean) | undefined;
  readonly logger: Logger;
  readonly languages: Languages;
  /** The world folder whose `playerdata/<uuid>.dat` files the plugin writes (atomically) for flying-squid. */
  readonly worldFolder?: string;
}

/** The connected players as HostPlayers, plus a way to resend a player's command tree after a permission change. */
export interface SystemPlugin extends SquidPlugin {
  players(): SquidHostPlayer[];
  refreshCommands(uuid?: string): void;
  /** Saves every online player's data file and waits for saves still running (a player who just left). */
  saveAll(): Promise<void>;
}

/** The entity an attack hit (flying-squid's entity, untyped upstream; only what a kill report reads). */
interface AttackedEntity {
  readonly type: string;
  readonly name?: unknown;
  readonly health: number;
  readonly id: number;
  readonly uuid?: string;
}

/** flying-squid's own save entry point, which its login and logout call; the plugin replaces it. */
type SavingPlayer = SquidPlayer & { save: () => Promise<void> };
/** flying-squid's health plugin sets `updateHealth` on every player; every damage goes through it. */
type DyingPlayer = SquidPlayer & { updateHealth?: (health: number) => void };

/**
 * Fixes what the embedded server does wrong for players: its own messages are shown in colour (not raw `&c`);
 * a line typed with a full-width slash (`／system …`) is a command, never public chat; command names are matched
 * without regard to case or full-width forms (`/SYSTEM ITEM`); `/help` shows System's help (flying-squid's own
 * throws).
 */
const behaveLikeAGameServer = (
  player: SquidPlayer,
  hostPlayer: SquidHostPlayer,
  bases: ReadonlySet<string>,
  broadcast: (component: ChatComponent) => void,
  failed: (error: unknown) => void,
): void => {
  const original = player.system.bind(player);
  player.system = (message: unknown) => {
    if (typeof message === "string") hostPlayer.sendCard(legacyComponent(message));
    else original(message);
  };
  player.on("command_cancel", (data: { command: string }, cancel: () => void) => {
    const line = data.command.normalize("NFKC");
    const head = /^\S*/u.exec(line)?.[0] ?? "";
    const base = head.toLowerCase();
    if (base === "help" || base === "?") {
      cancel();
      player.handleCommand(`system help${line.slice(head.length)}`).catch(failed);
      return;
    }
    if (bases.has(base)) data.command = `${base}${line.slice(head.length)}`;
  });
  player.on("chat_cancel", (data: { message?: unknown }, cancel: () => void) => {
    if (typeof data.message !== "string") return;
    cancel();
    const text = data.message.normalize("NFKC").trimStart();
    if (text.startsWith("/")) player.handleCommand(text.slice(1)).catch(failed);
    // public chat is the player's words: shown as typed, `&` and `§` included, never as colour codes
    else broadcast({ text: `<${hostPlayer.name}> ${data.message}` });
  });
};

/** flying-squid's login step (reads the player's data file, then spawns them), called right after "asap". */
type LoggingInPlayer = SquidPlayer & { login: () => Promise<void> };

/** How long a new connection waits for the older connection of the same player to leave. */
const DUPLICATE_LOGIN_WAIT_MILLIS = 5_000;

/** Builds the flying-squid plugin that registers `/system` and the shortcuts and replaces completion. */
export const systemPlugin = (options: SystemPluginOptions): SystemPlugin => {
  const { handler, logger } = options;
  const hostPlayers = new Map<SquidPlayer, SquidHostPlayer>();
  let server: SquidServer | undefined;
  const ops = new Set(options.ops.map((name) => name.toLowerCase()));
  const bases = [...new Set(["system", ...options.shortcuts])];
  // 1.20.2+ clients send their language during configuration, before flying-squid creates the player
  const configuredLocales = new WeakMap<object, string>();
  const pendingSaves = new Set<Promise<void>>();
  // Until "spawned" flying-squid may not have loaded the inventory yet: saving then would write it empty.
  const spawned = new WeakSet<SquidHostPlayer>();

  const failed = (what: string) => (error: unknown) => logger.error(what, error);

  /** Every save goes through the player's atomic, one-at-a-time writer; a failure is logged, never thrown. */
  const trackSave = (hostPlayer: SquidHostPlayer): Promise<void> => {
    const save = hostPlayer.save().catch(failed(`saving ${hostPlayer.name} failed`));
    pendingSaves.add(save);
    void save.finally(() => pendingSaves.delete(save));
    return save;
  };

  /** Kicks every other connection of this player's UUID and waits for it to leave and for the saves in flight. */
  const closeOlderConnections = async (player: SquidPlayer, hostPlayer: SquidHostPlayer): Promise<void> => {
    const older = [...hostPlayers].filter(
      ([other, host]) => other !== player && host.uuid === hostPlayer.uuid,
    );
    if (older.length === 0) return;
    await Promise.all(
      older.map(([other, host]) => {
        const gone = new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, DUPLICATE_LOGIN_WAIT_MILLIS);
          other.once("disconnected", () => {
            clearTimeout(timer);
            resolve();
          });
        });
        other.kick(
          options.languages.format(normalizeLocale(host.locale()), "system.host.duplicate_login", []),
        );
        return gone;
      }),
    );
    await Promise.all([...pendingSaves]);
  };

  const sendCommands = (serv: SquidServer, player: SquidPlayer, hostPlayer: SquidHostPlayer): void => {
    if (hostPlayer.protocolVersion < DECLARE_COMMANDS_PROTOCOL || !hostPlayer.isOnline()) return;
    const tree = handler.commandTree(hostPlayer);
    // System's own bases appear as the tree has them: a shortcut it leaves out (`/reason` while the player may
    // not call a model) is not sent as a plain command either
    const plain = Object.entries(serv.commands.uniqueHash)
      .filter(
        ([name, command]) =>
          name !== "" &&
          (tree === undefined || !bases.includes(name)) &&
          !command.params.onlyConsole &&
          (player.op || !command.params.op),
      )
      .map(([name]) => name);
    player._client.write("declare_commands", {
      ...withPlainCommands(tree?.toPacket() ?? emptyCommandsPacket(), plain),
    });
  };

  const runCommand = async (
    base: string,
    rest: string,
    player: SquidPlayer | undefined,
  ): Promise<undefined> => {
    const hostPlayer = player === undefined ? undefined : hostPlayers.get(player);
    if (hostPlayer === undefined) return undefined;
    const line = rest.trim() === "" ? base : `${base} ${rest.trim()}`;
    try {
      await handler.onCommand(hostPlayer, line);
    } catch (error) {
      logger.error(`command failed for ${hostPlayer.name}: /${line}`, error);
      hostPlayer.sendCard({
        text: options.languages.format(
          normalizeLocale(hostPlayer.locale()),
          "system.error.module_failed",
          [],
        ),
        color: "red",
      });
    }
    return undefined;
  };

  const refresh = (uuid?: string): void => {
    if (server === undefined) return;
    for (const [player, hostPlayer] of hostPlayers) {
      if (uuid !== undefined && hostPlayer.uuid !== uuid) continue;
      try {
        sendCommands(server, player, hostPlayer);
      } catch (error) {
        failed(`command tree failed for ${hostPlayer.name}`)(error);
      }
    }
  };

  return {
    server(serv) {
      server = serv;
      handler.onCommandsChanged?.((uuid) => refresh(uuid));
      serv._server.on("connection", (client: SquidClient) => {
        client.on("settings", (packet: { locale?: unknown }) => {
          if (typeof packet.locale === "string") configuredLocales.set(client, packet.locale);
        });
      });
      repairSummon(serv, (player, key, ...args) =>
        options.languages.format(normalizeLocale(hostPlayers.get(player)?.locale() ?? "en_us"), key, args),
      );
      for (const base of bases) {
        serv.commands.add({
          base,
          info: `System: /${base} <instruction>`,
          usage: `/${base} <instruction>`,
          action: (rest, context) => runCommand(base, typeof rest === "string" ? rest : "", context.player),
        });
      }
    },
    player(player, serv) {
      const hostPlayer = new SquidHostPlayer(
        serv,
        player,
        configuredLocales.get(player._client),
        options.worldFolder,
        ops.has(player._client.username.toLowerCase()),
      );
      hostPlayers.set(player, hostPlayer);
      behaveLikeAGameServer(
        player,
        hostPlayer,
        new Set(bases),
        (component) => {
          for (const other of hostPlayers.values()) other.sendCard(component);
        },
        failed(`command failed for ${hostPlayer.name}`),
      );
      repairRespawn(serv, player, failed(`respawn failed for ${hostPlayer.name}`));
      repairFirstMoveWait(player);
      repairEntityTeleport(serv, player);
      // flying-squid only reads unsigned `chat_command`; 1.20.5+ clients with a chat session sign commands
      player._client.on("chat_command_signed", (packet: { command?: unknown }) => {
        if (typeof packet.command === "string") {
          player.handleCommand(packet.command).catch(failed(`signed command failed for ${hostPlayer.name}`));
        }
      });
      player.once("asap", () => {
        // flying-squid (login, logout) writes the data file in place; a crash mid-write empties the inventory.
        // Its plugins set `save` before "asap", so the atomic writer replaces it here. A player who leaves
        // before spawning is not saved: the inventory may not have been loaded from the file yet.
        (player as SavingPlayer).save = () =>
          spawned.has(hostPlayer) ? trackSave(hostPlayer) : Promise.resolve();
        installTabComplete(
          serv,
          player,
          (line) => handler.completions(hostPlayer, line),
          failed(`completion failed for ${hostPlayer.name}`),
        );
        // one connection per player, as vanilla: an older one with the same UUID is closed, and its logout save
        // is written, before this one reads the player's data (flying-squid's own check runs before the UUID is
        // set, so both stayed in the game and the older one's save overwrote the newer one's data)
        const login = (player as LoggingInPlayer).login.bind(player);
        (player as LoggingInPlayer).login = async () => {
          await closeOlderConnections(player, hostPlayer);
          return login();
        };
      });
      player.once("spawned", () => {
        spawned.add(hostPlayer);
        // the game's own operator commands, for a listed operator who needs no verification or passed it
        if (ops.has(player.username.toLowerCase()) && (options.operatorVerified?.(hostPlayer.uuid) ?? true))
          hostPlayer.enableGameOperator();
        try {
          sendCommands(serv, player, hostPlayer);
        } catch (error) {
          failed(`command tree failed for ${hostPlayer.name}`)(error);
        }
        Promise.resolve()
          .then(() => handler.onJoin(hostPlayer))
          .catch(failed(`join handler failed for ${hostPlayer.name}`));
      });
      // flying-squid's melee: after an attack that was not cancelled, a mob at 0 health died from it
      player.on("attack_done", (data: { attackedEntity?: AttackedEntity }, cancelled: boolean) => {
        const target = data.attackedEntity;
        if (cancelled || target === undefined || target.type === "player" || !(target.health <= 0)) return;
        if (typeof target.name !== "string") return;
        handler.onKill?.(hostPlayer, `minecraft:${target.name}`, String(target.uuid ?? target.id));
      });
      // flying-squid emits nothing on a player's death: its health reaching 0 (a /kill, a fall) is one
      player.once("spawned", () => {
        const dying = player as DyingPlayer;
        const updateHealth = dying.updateHealth;
        if (typeof updateHealth !== "function") return;
        dying.updateHealth = (health: number) => {
          const alive = player.health > 0;
          updateHealth.call(player, health);
          if (alive && health <= 0)
            Promise.resolve()
              .then(() => handler.onDeath?.(hostPlayer))
              .catch(failed(`death handler failed for ${hostPlayer.name}`));
        };
      });
      player.on("change_world", () => {
        const dimension = dimensionOf(serv, player);
        Promise.resolve()
          .then(() => handler.onDimensionChange?.(hostPlayer, dimension))
          .catch(failed(`dimension handler failed for ${hostPlayer.name}`));
      });
      player.once("disconnected", () => {
        hostPlayers.delete(player);
        Promise.resolve()
          .then(() => handler.onLeave(hostPlayer))
          .catch(failed(`leave handler failed for ${hostPlayer.name}`));
      });
    },
    players: () => [...hostPlayers.values()].filter((hostPlayer) => hostPlayer.isOnline()),
    refreshCommands: (uuid) => refresh(uuid),
    saveAll: async () => {
      for (const hostPlayer of hostPlayers.values())
        if (spawned.has(hostPlayer) && hostPlayer.isOnline()) trackSave(hostPlayer);
      await Promise.all([...pendingSaves]);
    },
  };
};
