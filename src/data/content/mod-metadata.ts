import { parse as parseToml } from "smol-toml";
import type { ModInfo } from "./content-model.js";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown, fallback: string): string =>
  typeof value === "string" && value.trim() !== "" ? value : fallback;

/** The placeholder mods.toml uses for the jar's own version. */
const JAR_VERSION = ["$", "{file.jarVersion}"].join("");

/** `Implementation-Version` of a jar's manifest: what `${file.jarVersion}` in mods.toml stands for. */
export const manifestVersion = (manifest: string | undefined): string | undefined =>
  manifest?.match(/^Implementation-Version:\s*(.+?)\s*$/m)?.[1];

/**
 * The mods of a `META-INF/mods.toml` (Forge, NeoForge ≤1.20.4) or `META-INF/neoforge.mods.toml`: one per
 * `[[mods]]`. Throws on malformed TOML (the caller names the jar and entry).
 */
export const readModsToml = (
  source: string,
  loader: "forge" | "neoforge",
  file: string,
  manifest: string | undefined,
): ModInfo[] => {
  const document = parseToml(source) as Json;
  const mods = Array.isArray(document.mods) ? document.mods : [];
  return mods.filter(isObject).flatMap((mod) => {
    if (typeof mod.modId !== "string") return [];
    const raw = text(mod.version, "?");
    const version = raw.includes(JAR_VERSION) ? (manifestVersion(manifest) ?? raw) : raw;
    return [{ id: mod.modId, name: text(mod.displayName, mod.modId), version, loader, file }];
  });
};

/** The mod of a `fabric.mod.json` and the nested jars it lists (`jars: [{file}]`). Throws on malformed JSON. */
export const readFabricModJson = (source: string, file: string): { mods: ModInfo[]; jars: string[] } => {
  const json = JSON.parse(source) as unknown;
  if (!isObject(json) || typeof json.id !== "string") return { mods: [], jars: [] };
  const jars = Array.isArray(json.jars)
    ? json.jars.flatMap((jar) => (isObject(jar) && typeof jar.file === "string" ? [jar.file] : []))
    : [];
  return {
    mods: [
      {
        id: json.id,
        name: text(json.name, json.id),
        version: text(json.version, "?"),
        loader: "fabric",
        file,
      },
    ],
    jars,
  };
};
