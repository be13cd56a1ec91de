import type { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import { quietConsoleWhenPiped } from "./quiet-console.js";

/** The parts of a minecraft-protocol client connection that the host writes to and listens on. */
export interface SquidClient extends EventEmitter {
  readonly protocolVersion: number;
  readonly version: string;
  readonly username: string;
  readonly uuid: string;
  write(name: string, params: Record<string, unknown>): void;
  /** Writes a packet already serialized (id and fields), compressed and framed as `write` would. */
  writeRaw?(buffer: Buffer): void;
  /** The stream `write` goes through; what it still holds has not reached the connection yet. */
  readonly serializer?: { readonly readableLength: number; readonly writableLength: number };
}

/** A slot of flying-squid's inventory window (a prismarine-item). */
export interface SquidItem {
  readonly type: number;
  readonly name: string;
  count: number;
  readonly stackSize: number;
  readonly slot: number;
}

/** flying-squid's player inventory window (prismarine-windows). */
export interface SquidInventory {
  readonly slots: (SquidItem | null | undefined)[];
  readonly inventoryStart: number;
  readonly inventoryEnd: number;
  updateSlot(slot: number, item: SquidItem | null): void;
  firstEmptyInventorySlot(): number | null;
}

/** A connected flying-squid player entity (untyped upstream; only what the host reads). */
export interface SquidPlayer extends EventEmitter {
  readonly _client: SquidClient;
  readonly username: string;
  readonly uuid: string;
  op: boolean;
  readonly health: number;
  readonly food: number;
  readonly xp: number;
  readonly level?: number;
  /** flying-squid's experience plugin: sets the total, derives level and bar, sends them to the client. */
  setXp(xp: number): void;
  readonly gameMode: number;
  readonly position: { x: number; y: number; z: number };
  readonly world: unknown;
  readonly inventory: SquidInventory;
  readonly heldItemSlot: number;
  readonly disconnected?: boolean;
  kick(reason: string): void;
  /** flying-squid's command entry (permission checks, usage errors) for a line without the slash. */
  handleCommand(line: string): Promise<void>;
  /** Sends a system message (a string with `&` colour codes, or a chat component object). */
  system(message: unknown): void;
}

/** One command registration of flying-squid's own (non-Brigadier) command system. */
export interface SquidCommandSpec {
  readonly base: string;
  readonly aliases?: readonly string[];
  readonly info?: string;
  readonly usage?: string;
  readonly op?: boolean;
  readonly onlyPlayer?: boolean;
  /** What flying-squid completes for each argument (`player`, `entity`…). */
  readonly tab?: readonly string[];
  action(rest: string, context: { player?: SquidPlayer }): Promise<string | undefined> | string | undefined;
}

/** flying-squid's command registry (`serv.commands`). */
export interface SquidCommands {
  readonly uniqueHash: Record<
    string,
    { readonly params: { readonly op?: boolean; readonly onlyConsole?: boolean } }
  >;
  add(spec: SquidCommandSpec): unknown;
}

/** A flying-squid plugin object: `server` runs once, `player` once per joining player. */
export interface SquidPlugin {
  server?(serv: SquidServer, settings: Record<string, unknown>): void;
  player?(player: SquidPlayer, serv: SquidServer): void;
}

/** The running flying-squid server (`MCServer`). */
export interface SquidServer extends EventEmitter {
  readonly players: SquidPlayer[];
  readonly commands: SquidCommands;
  readonly registry: {
    readonly version: { readonly minecraftVersion: string };
    readonly itemsByName: Record<string, { readonly id: number; readonly stackSize: number } | undefined>;
  };
  readonly overworld: unknown;
  readonly netherworld: unknown;
  readonly _server: EventEmitter & { readonly socketServer?: { address(): unknown } };
  supportFeature(feature: string): boolean;
  addPlugin(name: string, plugin: SquidPlugin, settings: Record<string, unknown>): void;
  quit(reason?: string): Promise<void>;
}

interface FlyingSquidModule {
  createMCServer(options: Record<string, unknown>): SquidServer;
}

/** Loads flying-squid (CommonJS, untyped) behind the typed surface above. */
export const loadFlyingSquid = (): FlyingSquidModule => {
  quietConsoleWhenPiped();
  return createRequire(import.meta.url)("flying-squid") as FlyingSquidModule;
};

/** prismarine-item's constructor bound to the server's registry, to create stacks for `updateSlot`. */
export const itemConstructor = (serv: SquidServer): (new (type: number, count: number) => SquidItem) => {
  const factory = createRequire(import.meta.url)("prismarine-item") as (
    registry: unknown,
  ) => new (
    type: number,
    count: number,
  ) => SquidItem;
  return factory(serv.registry);
};
