import { createRequire } from "node:module";
import { type ProtocolDescription, systemChatPacketId } from "../../shared/chat-nbt.js";
import { type CompiledProtocol, compiledProtocol, readVarInt } from "./minecraft-protocol.js";

/** A connection state of the Minecraft protocol, named as minecraft-data names them. */
export type ProtocolState = "handshaking" | "status" | "login" | "configuration" | "play";

/** Who sends a packet: `toServer` is what the client sends, `toClient` what the backend sends. */
export type Direction = "toClient" | "toServer";

/** A packet the gateway decoded, with the frame it came in (relayed as it came unless a handler consumes it). */
export interface DecodedPacket {
  readonly name: string;
  readonly params: Record<string, unknown>;
  readonly frame: Buffer;
}

interface MinecraftData {
  readonly version: { readonly minecraftVersion: string; readonly version: number };
  readonly protocol: Record<string, { [D in Direction]?: { types: { packet?: unknown } } } | undefined>;
  readonly items: Readonly<Record<number, { readonly name: string } | undefined>>;
  readonly itemsByName: Readonly<Record<string, unknown>>;
  supportFeature(feature: string): boolean;
}
interface MinecraftDataModule {
  (version: string): MinecraftData | null;
  readonly postNettyVersionsByProtocolVersion: {
    readonly pc: Readonly<Record<string, readonly { minecraftVersion: string }[] | undefined>>;
  };
}

const require = createRequire(import.meta.url);
const minecraftData = require("minecraft-data") as MinecraftDataModule;

/** The packet names of one state and direction by id, read from minecraft-data's `packet` mapper. */
const packetNames = (
  data: MinecraftData,
  state: ProtocolState,
  direction: Direction,
): Map<number, string> => {
  const names = new Map<number, string>();
  const packet = data.protocol[state]?.[direction]?.types.packet as
    | [string, [{ type: [string, { mappings: Record<string, string> }] }]]
    | undefined;
  const mappings = packet?.[1][0]?.type[1].mappings ?? {};
  for (const [id, name] of Object.entries(mappings)) names.set(Number.parseInt(id, 16), name);
  return names;
};

/**
 * The packet table of one protocol version: names by id per state and direction (minecraft-data), and the
 * decoder and encoder of minecraft-protocol for the few packets the gateway reads or writes. Decoding is
 * total or nothing: a packet that does not decode to exactly its frame's length is `undefined`, so the caller
 * relays it as it came.
 */
export class PacketCodec {
  readonly #data: MinecraftData;
  readonly #names = new Map<string, Map<number, string>>();
  readonly #ids = new Map<string, Map<string, number>>();
  readonly #protocols = new Map<string, { decoder: CompiledProtocol; encoder: CompiledProtocol }>();
  #systemChat: { readonly id: number | undefined } | undefined;

  private constructor(data: MinecraftData) {
    this.#data = data;
  }

  /** The codec of a Minecraft version (`1.21.4`); undefined when minecraft-data does not know it. */
  static forVersion(version: string): PacketCodec | undefined {
    const data = minecraftData(version);
    return data === null ? undefined : new PacketCodec(data);
  }

  /** The codec of a protocol number from a handshake; undefined when minecraft-data does not know it. */
  static forProtocol(protocolVersion: number): PacketCodec | undefined {
    const versions = minecraftData.postNettyVersionsByProtocolVersion.pc[String(protocolVersion)] ?? [];
    for (const { minecraftVersion } of versions) {
      const codec = PacketCodec.forVersion(minecraftVersion);
      if (codec !== undefined && codec.protocolVersion === protocolVersion) return codec;
    }
    return undefined;
  }

  get minecraftVersion(): string {
    return this.#data.version.minecraftVersion;
  }

  get protocolVersion(): number {
    return this.#data.version.version;
  }

  /** A minecraft-data feature of this version (`chatPacketsUseNbtComponents`, …). */
  supports(feature: string): boolean {
    return this.#data.supportFeature(feature);
  }

  /** The namespaced name of a vanilla item id of this version (`minecraft:diamond`); undefined for an id it lacks. */
  itemName(id: number): string | undefined {
    const name = this.#data.items[id]?.name;
    return name === undefined ? undefined : `minecraft:${name}`;
  }

  /** Whether this version has the vanilla item (`minecraft:diamond`). */
  knowsItem(name: string): boolean {
    return (
      name.startsWith("minecraft:") && Object.hasOwn(this.#data.itemsByName, name.slice("minecraft:".length))
    );
  }

  /** The name of packet `id`, undefined for an id this version does not have in that state. */
  name(state: ProtocolState, direction: Direction, id: number): string | undefined {
    return this.#table(state, direction).get(id);
  }

  /** Whether this version has the packet (a per-version table, instead of comparing version numbers). */
  has(state: ProtocolState, direction: Direction, name: string): boolean {
    return this.#idTable(state, direction).has(name);
  }

  /** The id of packet `name` in this version (the per-version table), undefined when it lacks the packet. */
  idOf(state: ProtocolState, direction: Direction, name: string): number | undefined {
    return this.#idTable(state, direction).get(name);
  }

  /** The name of a frame's packet id, or undefined when the id is unknown or the frame is empty. */
  nameOf(state: ProtocolState, direction: Direction, frame: Buffer): string | undefined {
    try {
      return this.name(state, direction, readVarInt(frame, 0).value);
    } catch {
      return undefined;
    }
  }

  /** Decodes a whole frame; undefined when it fails or leaves bytes unread (the caller relays it raw). */
  decode(state: ProtocolState, direction: Direction, frame: Buffer): DecodedPacket | undefined {
    try {
      const { data, metadata } = this.#protocol(state, direction).decoder.parsePacketBuffer("packet", frame);
      if (metadata.size !== frame.length) return undefined;
      return { name: data.name, params: data.params, frame };
    } catch {
      return undefined;
    }
  }

  /** `system_chat`'s id when this version's is NBT content plus isActionBar (what `systemChatBytes` writes). */
  systemChatId(): number | undefined {
    this.#systemChat ??= { id: systemChatPacketId(this.#data as ProtocolDescription) };
    return this.#systemChat.id;
  }

  /** Encodes a packet the gateway writes itself; throws on a programmer error (unknown name, bad params). */
  encode(state: ProtocolState, direction: Direction, name: string, params: Record<string, unknown>): Buffer {
    return this.#protocol(state, direction).encoder.createPacketBuffer("packet", { name, params });
  }

  #table(state: ProtocolState, direction: Direction): Map<number, string> {
    const key = `${state};${direction}`;
    let table = this.#names.get(key);
    if (table === undefined) {
      table = packetNames(this.#data, state, direction);
      this.#names.set(key, table);
    }
    return table;
  }

  #idTable(state: ProtocolState, direction: Direction): Map<string, number> {
    const key = `${state};${direction}`;
    let table = this.#ids.get(key);
    if (table === undefined) {
      table = new Map([...this.#table(state, direction)].map(([id, name]) => [name, id]));
      this.#ids.set(key, table);
    }
    return table;
  }

  #protocol(
    state: ProtocolState,
    direction: Direction,
  ): { decoder: CompiledProtocol; encoder: CompiledProtocol } {
    const key = `${state};${direction}`;
    let protocol = this.#protocols.get(key);
    if (protocol === undefined) {
      protocol = compiledProtocol(state, direction, this.minecraftVersion);
      this.#protocols.set(key, protocol);
    }
    return protocol;
  }
}
