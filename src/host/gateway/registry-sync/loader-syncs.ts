import { namespaced, WireError, WireReader } from "./wire-reader.js";

/** The registry whose numbers live stacks carry. */
export const ITEM_REGISTRY = "minecraft:item";

/** Item number → item id (`create:andesite_alloy`), the whole registry, vanilla entries included. */
export type ItemIds = ReadonlyMap<number, string>;

const putId = (ids: Map<number, string>, id: number, name: string): void => {
  if (id < 0) throw new WireError(`a negative item number ${id}`);
  if (ids.has(id)) throw new WireError(`item number ${id} is given twice`);
  ids.set(id, namespaced(name));
};

/** `neoforge:frozen_registry_sync_start`: the registries the sync will send (VarInt n + n × identifier). */
export const neoForgeSyncStart = (payload: Buffer): string[] => {
  const reader = new WireReader(payload);
  const names = Array.from({ length: reader.count() }, () => namespaced(reader.string()));
  if (!reader.done) throw new WireError("bytes follow the list of registries");
  return names;
};

/**
 * `neoforge:frozen_registry` (NeoForge 1.20.4–1.21.x, configuration): the registry's name, then its snapshot,
 * `ids` as VarInt n × (VarInt number, identifier) and `aliases` as VarInt m × (identifier, identifier). The ids
 * are given only for `minecraft:item` (the others are read to check the layout, then dropped).
 */
export const neoForgeFrozenRegistry = (payload: Buffer): { registry: string; ids: ItemIds | undefined } => {
  const reader = new WireReader(payload);
  const registry = namespaced(reader.string());
  const keep = registry === ITEM_REGISTRY;
  const ids = new Map<number, string>();
  for (let entries = reader.count(); entries > 0; entries--) {
    const id = reader.varInt();
    const name = reader.string();
    if (keep) putId(ids, id, name);
  }
  for (let aliases = reader.count(); aliases > 0; aliases--) {
    reader.string();
    reader.string();
  }
  if (!reader.done) throw new WireError(`bytes follow the snapshot of ${registry}`);
  return { registry, ids: keep ? ids : undefined };
};

/** Where a `neoforge:split` slice stands in its packet: 1 first, 0 in the middle, 2 last. */
export type SplitState = "first" | "middle" | "last";

/**
 * `neoforge:split`: a byte array (VarInt length + bytes) whose first byte is the slice's state and the rest a
 * slice of one whole encoded packet (packet id and body), to be joined with the others of its packet.
 */
export const neoForgeSplit = (payload: Buffer): { state: SplitState; slice: Buffer } => {
  const reader = new WireReader(payload);
  const bytes = reader.take(reader.varInt());
  if (!reader.done) throw new WireError("bytes follow a split slice");
  const body = new WireReader(bytes);
  const state = ({ 1: "first", 0: "middle", 2: "last" } as const)[body.byte()];
  if (state === undefined) throw new WireError("a split slice has an unknown state");
  return { state, slice: body.rest() };
};

/** A Forge 1.20.1 handshake message inside `fml:loginwrapper`: its inner channel, discriminator and body. */
export interface ForgeHandshakeMessage {
  readonly channel: string;
  readonly discriminator: number;
  readonly body: Buffer;
}

/** The data of a `fml:loginwrapper` login query: inner channel, VarInt length, then `u8 discriminator` + message. */
export const forgeLoginWrapper = (data: Buffer): ForgeHandshakeMessage => {
  const reader = new WireReader(data);
  const channel = namespaced(reader.string());
  const inner = new WireReader(reader.take(reader.varInt()));
  if (!reader.done) throw new WireError("bytes follow the wrapped message");
  const discriminator = inner.byte();
  return { channel, discriminator, body: inner.rest() };
};

/** `S2CModList`'s discriminator in `fml:handshake`. */
export const FORGE_MOD_LIST = 1;
/** `S2CRegistry`'s discriminator in `fml:handshake`. */
export const FORGE_REGISTRY = 3;

/**
 * `S2CRegistry` (Forge 1.20.1, discriminator 3): the registry's name, `hasSnapshot`, then `ids` as VarInt n ×
 * (identifier, VarInt number) sorted by name, `aliases` (identifier, identifier), `overrides` (identifier,
 * owner) and `blocked` (VarInt numbers). The ids are given only for `minecraft:item`; a registry sent without its
 * snapshot has none (undefined).
 */
export const forgeRegistry = (body: Buffer): { registry: string; ids: ItemIds | undefined } => {
  const reader = new WireReader(body);
  const registry = namespaced(reader.string());
  if (!reader.boolean()) {
    if (!reader.done) throw new WireError(`bytes follow ${registry} sent without a snapshot`);
    return { registry, ids: undefined };
  }
  const keep = registry === ITEM_REGISTRY;
  const ids = new Map<number, string>();
  for (let entries = reader.count(); entries > 0; entries--) {
    const name = reader.string();
    const id = reader.varInt();
    if (keep) putId(ids, id, name);
  }
  for (const _list of ["aliases", "overrides"]) {
    for (let pairs = reader.count(); pairs > 0; pairs--) {
      reader.string();
      reader.string();
    }
  }
  for (let blocked = reader.count(); blocked > 0; blocked--) reader.varInt();
  if (!reader.done) throw new WireError(`bytes follow the snapshot of ${registry}`);
  return { registry, ids: keep ? ids : undefined };
};

/**
 * The joined slices of `fabric:registry/sync/direct` (Fabric API 1.20.1 and 1.21.x): registries grouped by
 * namespace (`""` is `minecraft`), each with its ids grouped by namespace in runs of consecutive numbers, a run
 * starting `startDiff` after the previous run's last number. Gives the item ids when `minecraft:item` is among
 * the registries (Fabric sends only the registries mods added to), else undefined.
 */
export const fabricDirectSync = (bytes: Buffer): ItemIds | undefined => {
  const reader = new WireReader(bytes);
  let items: Map<number, string> | undefined;
  for (let registryNamespaces = reader.count(); registryNamespaces > 0; registryNamespaces--) {
    const registryNamespace = reader.string() || "minecraft";
    for (let registries = reader.count(); registries > 0; registries--) {
      const registry = `${registryNamespace}:${reader.string()}`;
      const ids = new Map<number, string>();
      let lastId = 0;
      for (let idNamespaces = reader.count(); idNamespaces > 0; idNamespaces--) {
        const idNamespace = reader.string() || "minecraft";
        for (let runs = reader.count(); runs > 0; runs--) {
          let id = lastId + reader.varInt() - 1;
          for (let size = reader.count(); size > 0; size--) {
            id++;
            const path = reader.string();
            if (registry === ITEM_REGISTRY) putId(ids, id, `${idNamespace}:${path}`);
          }
          lastId = id;
        }
      }
      if (registry === ITEM_REGISTRY) items = ids;
    }
  }
  if (!reader.done) throw new WireError("bytes follow the registries");
  return items;
};
