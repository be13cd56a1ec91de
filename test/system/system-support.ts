import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Bot } from "mineflayer";
import { type GameClock, systemClock } from "../../src/game/context-types.js";
import { type RunningSystem, startSystem } from "../../src/host/flying-squid/start-system.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { type ChatMessage, command, recordChat } from "../e2e/assistant-support.js";
import { joinBot, tempFolder, waitFor } from "../e2e/host-support.js";

export { type ChatMessage, command, recordChat } from "../e2e/assistant-support.js";
export { joinBot, tempFolder, waitFor } from "../e2e/host-support.js";
export { modelEnvironment } from "../support/test-model.js";

/** A server started exactly as `npm start` starts it (startSystem), in a temp data directory. */
export interface ShippedServer {
  readonly folder: string;
  readonly system: RunningSystem;
  readonly logger: MemoryLogger;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Starts the shipped assembly on a free port. `files` are written into the data directory first (config files,
 * data-pack overrides; a file given as undefined is not written, so the server starts with its own default), `ops`
 * become operators; the world is superflat with a view distance of 2 so start-up and joins are quick.
 */
export const startShipped = async (
  options: {
    readonly environment?: Record<string, string>;
    readonly ops?: readonly string[];
    readonly files?: Readonly<Record<string, string | undefined>>;
    readonly folder?: string;
    /** The server clock (a test moves it to cross days); the process clock by default. */
    readonly clock?: GameClock;
    /** More command-line flags, after `--port 0 --data-dir <folder>` (`--panel-port N`). */
    readonly flags?: readonly string[];
  } = {},
): Promise<ShippedServer> => {
  const folder = options.folder ?? tempFolder("system-shipped-");
  const files: Record<string, string | undefined> = {
    // the nearest chunks only: each bot joins with 25 chunks instead of 169 (tests walk and teleport, never look far)
    "config/system/server.json": JSON.stringify({
      generation: "superflat",
      ops: options.ops ?? [],
      viewDistance: 2,
    }),
    // no welcome kit unless a test asks for advancement rules: it would change what other tests count
    "config/system/advancements.json": JSON.stringify({ rules: [] }),
    // the web panel on a free port (tests run side by side)
    "config/system/panel.json": JSON.stringify({ enabled: true, host: "127.0.0.1", port: 0 }),
    ...options.files,
  };
  for (const [path, content] of Object.entries(files)) {
    if (content === undefined) continue;
    mkdirSync(join(folder, path, ".."), { recursive: true });
    writeFileSync(join(folder, path), content);
  }
  const logger = new MemoryLogger();
  const system = await startSystem({
    clock: options.clock ?? systemClock(),
    argv: ["--port", "0", "--data-dir", folder, ...(options.flags ?? [])],
    environment: options.environment ?? {},
    logger,
    announce: () => {},
  });
  return { folder, system, logger, port: system.host.port, close: () => system.close() };
};

/** A joined bot with its recorded chat and a `say` that waits for the matching reply. */
export interface Player {
  readonly bot: Bot;
  readonly chat: ChatMessage[];
  /** Sends a line and waits for the reply `match` names (never just the first message: a notice may come first). */
  say(line: string, match: (message: ChatMessage) => boolean, timeoutMillis?: number): Promise<ChatMessage>;
  /** Waits for a message that arrives without a command (a notice). */
  next(match: (message: ChatMessage) => boolean, timeoutMillis?: number): Promise<ChatMessage>;
  quit(): void;
}

export const joinPlayer = async (port: number, name: string): Promise<Player> => {
  const bot = await joinBot(port, name);
  const chat = recordChat(bot);
  return {
    bot,
    chat,
    say: (line, match, timeoutMillis) => command(bot, chat, line, match, timeoutMillis),
    next: async (match, timeoutMillis = 20_000) => {
      const deadline = Date.now() + timeoutMillis;
      for (;;) {
        const found = chat.find(match);
        if (found !== undefined) return found;
        if (Date.now() > deadline)
          throw new Error(`no matching message; got ${JSON.stringify(chat.map((message) => message.text))}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    quit: () => bot.quit(),
  };
};

/**
 * Switches a bot's client language (the settings packet a real client sends when the language changes) and waits
 * until the server holds it: notices and replies from then on are in that language.
 */
export const speak = async (
  server: ShippedServer,
  player: Player,
  locale: "zh_cn" | "en_us",
): Promise<void> => {
  player.bot._client.write("settings", {
    locale,
    viewDistance: 2,
    chatFlags: 0,
    chatColors: true,
    skinParts: 127,
    mainHand: 1,
    enableTextFiltering: false,
    enableServerListing: true,
    particles: 0,
  });
  const name = player.bot.username;
  await waitFor(() =>
    server.system.host
      .players()
      .find((online) => online.name === name)
      ?.locale() === locale
      ? true
      : undefined,
  );
};

/** The UUID the running server gave an online player (v3 of `OfflinePlayer:<name>`). */
export const uuidOf = (system: RunningSystem, name: string): string => {
  const player = system.host.players().find((candidate) => candidate.name === name);
  if (player === undefined) throw new Error(`${name} is not online`);
  return player.uuid;
};

/**
 * A round trip on the player's connection (a tab completion the server answers): every packet the server sent
 * the player before, a notice included, has been read into `chat` when it resolves.
 */
export const roundTrip = async (player: Player): Promise<void> => {
  await player.bot.tabComplete("~", false, false, 20_000);
};

/**
 * Waits until the server runs no event task (their notices are sent by then) and for a round trip on the
 * player's connection: a check that something did NOT arrive may follow, and sees everything that was sent.
 */
export const settled = async (server: ShippedServer, player: Player): Promise<void> => {
  const online = server.system.host.players().find((candidate) => candidate.name === player.bot.username);
  // a join still running may queue event tasks (a welcome): those are waited for too
  if (online !== undefined) await server.system.assistant.turnSettled(online.uuid);
  await server.system.assistant.events.whenIdle();
  await roundTrip(player);
};

/** Where the server holds an online player (what features read); undefined when they are not online. */
export const positionOf = (
  server: ShippedServer,
  name: string,
): { readonly x: number; readonly y: number; readonly z: number } | undefined =>
  server.system.host
    .players()
    .find((player) => player.name === name)
    ?.stats().position;

/** How many of an item a bot holds (all its inventory stacks). */
export const held = (player: Player, item: string): number =>
  player.bot.inventory
    .items()
    .filter((stack) => stack.name === item)
    .reduce((sum, stack) => sum + stack.count, 0);

/** A quest fixture folder's `.snbt` files as `startShipped` writes them into `config/ftbquests/quests/`. */
export const questFolderFiles = (fixture: string): Record<string, string> => {
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".snbt"))
        files[`config/ftbquests/quests/${relative(fixture, path)}`] = readFileSync(path, "utf8");
    }
  };
  walk(fixture);
  return files;
};

/**
 * A 1.21 quest folder (text in lang files) whose "Welcome Gift" quest has no task and gives 3 bread and 2
 * experience levels, as data-directory files for `startShipped({ files })` or a spawned server.
 */
export const welcomeGiftQuestFiles = (): Record<string, string> => {
  const folder = "config/ftbquests/quests";
  return {
    [`${folder}/data.snbt`]: '{\n\tfallback_locale: "en_us"\n\tversion: 13\n}\n',
    [`${folder}/chapters/welcome.snbt`]: [
      "{",
      '\tfilename: "welcome"',
      '\tid: "5000000000000001"',
      "\tquests: [{",
      '\t\tid: "6000000000000001"',
      "\t\trewards: [",
      '\t\t\t{ count: 3, id: "7000000000000001", item: { count: 1, id: "minecraft:bread" }, type: "item" }',
      '\t\t\t{ id: "7000000000000002", type: "xp_levels", xp_levels: 2 }',
      "\t\t]",
      "\t\tx: 0.0d",
      "\t\ty: 0.0d",
      "\t}]",
      "}",
      "",
    ].join("\n"),
    [`${folder}/lang/en_us.snbt`]:
      '{\n\tchapter.5000000000000001.title: "Welcome"\n\tquest.6000000000000001.title: "Welcome Gift"\n}\n',
  };
};

/** One rule of `config/system/advancements.json`, enabled. */
export const advancementRule = (
  id: string,
  event: string,
  conditions: Record<string, unknown>,
  workflow: string,
  input: unknown,
  repeat: "once" | "daily" | "always" = "always",
) => ({ id, trigger: { event, conditions }, action: { workflow, input }, repeat, enabled: true });

/** A rule showing the admin's message (`system:announce`) on an event. */
export const announceRule = (id: string, event: string, conditions: Record<string, unknown>, text: string) =>
  advancementRule(id, event, conditions, "system:announce", { message: { en_us: text } });

/** Quits a bot and waits until the server no longer lists the player (their leave has begun). */
export const quitAndWait = async (server: ShippedServer, player: Player, name: string): Promise<void> => {
  player.quit();
  await waitFor(() =>
    server.system.host.players().some((online) => online.name === name) ? undefined : true,
  );
};
