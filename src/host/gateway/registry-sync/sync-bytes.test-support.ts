import { stringBytes as str, varIntBytes as varInt } from "./wire-reader.js";

/**
 * Registry syncs laid out by hand as each loader writes them (the byte layouts of NeoForge 1.21.1
 * RegistrySnapshot, Forge 1.20.1 HandshakeMessages and Fabric's DirectRegistryPacketHandler), for tests.
 */
export type Entries = readonly (readonly [number, string])[];

const count = (n: number): Buffer => varInt(n);

/** `neoforge:frozen_registry_sync_start`: the registry names. */
export const neoForgeStartPayload = (registries: readonly string[]): Buffer =>
  Buffer.concat([count(registries.length), ...registries.map(str)]);

/** `neoforge:frozen_registry`: name, ids as (VarInt id, String name) ascending, aliases. */
export const neoForgeRegistryPayload = (
  registry: string,
  entries: Entries,
  aliases: readonly (readonly [string, string])[] = [],
): Buffer =>
  Buffer.concat([
    str(registry),
    count(entries.length),
    ...entries.flatMap(([id, name]) => [varInt(id), str(name)]),
    count(aliases.length),
    ...aliases.flatMap(([from, to]) => [str(from), str(to)]),
  ]);

/** The `neoforge:split` payloads of a whole packet cut into `parts` slices (state byte 1, 0…, 2). */
export const neoForgeSplitPayloads = (whole: Buffer, parts: number): Buffer[] => {
  const size = Math.ceil(whole.length / parts);
  return Array.from({ length: parts }, (_, index) => {
    const state = index === 0 ? 1 : index === parts - 1 ? 2 : 0;
    const bytes = Buffer.concat([Buffer.from([state]), whole.subarray(index * size, (index + 1) * size)]);
    return Buffer.concat([varInt(bytes.length), bytes]);
  });
};

/** `fml:loginwrapper` data around one `fml:handshake` message. */
export const forgeWrapperData = (discriminator: number, message: Buffer): Buffer => {
  const inner = Buffer.concat([Buffer.from([discriminator]), message]);
  return Buffer.concat([str("fml:handshake"), varInt(inner.length), inner]);
};

/** `S2CModList` (discriminator 1): mod ids, channels, registries, datapack registries. */
export const forgeModList = (mods: readonly string[]): Buffer =>
  Buffer.concat([count(mods.length), ...mods.map(str), count(0), count(1), str("minecraft:item"), count(0)]);

/** `S2CRegistry` (discriminator 3): name, hasSnapshot, ids as (String name, VarInt id) sorted by name, aliases, overrides, blocked. */
export const forgeRegistryMessage = (registry: string, entries: Entries | undefined): Buffer => {
  if (entries === undefined) return Buffer.concat([str(registry), Buffer.from([0])]);
  const sorted = [...entries].sort(([, left], [, right]) => left.localeCompare(right));
  return Buffer.concat([
    str(registry),
    Buffer.from([1]),
    count(sorted.length),
    ...sorted.flatMap(([id, name]) => [str(name), varInt(id)]),
    count(1),
    str("create:old_alloy"),
    str("create:andesite_alloy"),
    count(0),
    count(1),
    varInt(4242),
  ]);
};

/**
 * The whole `fabric:registry/sync/direct` buffer of registries → entries, written as Fabric writes it:
 * registries grouped by namespace (`minecraft` as ""), ids grouped by namespace in runs of consecutive numbers.
 */
export const fabricDirectBytes = (registries: Readonly<Record<string, Entries>>): Buffer => {
  const byNamespace = new Map<string, [string, Entries][]>();
  for (const [registry, entries] of Object.entries(registries)) {
    const [namespace, path] = registry.split(":") as [string, string];
    const key = namespace === "minecraft" ? "" : namespace;
    byNamespace.set(key, [...(byNamespace.get(key) ?? []), [path, entries]]);
  }
  const parts: Buffer[] = [count(byNamespace.size)];
  for (const [namespace, list] of byNamespace) {
    parts.push(str(namespace), count(list.length));
    for (const [path, entries] of list) {
      parts.push(str(path));
      // ids grouped by namespace in order of first appearance, each group in runs of consecutive ids
      const groups = new Map<string, [number, string][]>();
      for (const [id, name] of [...entries].sort(([left], [right]) => left - right)) {
        const [idNamespace, idPath] = name.split(":") as [string, string];
        const key = idNamespace === "minecraft" ? "" : idNamespace;
        groups.set(key, [...(groups.get(key) ?? []), [id, idPath]]);
      }
      parts.push(count(groups.size));
      let lastId = 0;
      for (const [idNamespace, ids] of groups) {
        const runs: [number, string][][] = [];
        for (const entry of ids) {
          const run = runs.at(-1);
          if (run !== undefined && (run.at(-1) as [number, string])[0] + 1 === entry[0]) run.push(entry);
          else runs.push([entry]);
        }
        parts.push(str(idNamespace), count(runs.length));
        for (const run of runs) {
          const first = (run[0] as [number, string])[0];
          parts.push(varInt(first - lastId), count(run.length), ...run.map(([, idPath]) => str(idPath)));
          lastId = (run.at(-1) as [number, string])[0];
        }
      }
    }
  }
  return Buffer.concat(parts);
};
