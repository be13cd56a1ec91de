import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { Identifier } from "../util/identifier.js";
import type { Logger } from "../util/logger.js";

const TAG_FILE = z.object({
  replace: z.boolean().default(false),
  values: z.array(z.string()),
});

/**
 * Tags over `system:system_module` entries, read like the game's registry tags from
 * `data/<namespace>/tags/system_module/<path>.json` (`{"replace": false, "values": ["ns:id", "#ns:tag"]}`); a later
 * pack root adds to a tag unless it replaces it. Admin commands and grants accept `#namespace:path`.
 */
export class SystemModuleTags {
  private constructor(private readonly raw: ReadonlyMap<string, readonly string[]>) {}

  /** No tags (engines assembled without data packs, in tests). */
  static empty(): SystemModuleTags {
    return new SystemModuleTags(new Map());
  }

  static read(packRoots: readonly string[], logger: Logger): SystemModuleTags {
    const tags = new Map<string, string[]>();
    for (const root of packRoots) {
      const dataFolder = join(root, "data");
      for (const namespace of listFolder(dataFolder)) {
        const folder = join(dataFolder, namespace, "tags", "system_module");
        for (const file of listFolder(folder).filter((name) => name.endsWith(".json"))) {
          const source = join(folder, file);
          const id = Identifier.tryParse(`${namespace}:${file.slice(0, -".json".length)}`);
          if (id === undefined) {
            logger.warn(`system_module tag ${source}: file name is not a valid identifier; skipped`);
            continue;
          }
          let decoded: z.infer<typeof TAG_FILE>;
          try {
            const parsed = TAG_FILE.safeParse(JSON.parse(readFileSync(source, "utf8")));
            if (!parsed.success) {
              logger.warn(
                `system_module tag ${source}: ${parsed.error.issues[0]?.message ?? "invalid"}; skipped`,
              );
              continue;
            }
            decoded = parsed.data;
          } catch (error) {
            logger.error(`system_module tag ${source}: not valid JSON; skipped`, error);
            continue;
          }
          const invalid = decoded.values.find(
            (value) => Identifier.tryParse(value.replace(/^#/, "")) === undefined,
          );
          if (invalid !== undefined) {
            logger.warn(
              `system_module tag ${source}: ${JSON.stringify(invalid)} is not an id or #tag; skipped`,
            );
            continue;
          }
          const key = id.toString();
          const values = decoded.values.map((value) =>
            value.startsWith("#")
              ? `#${Identifier.parse(value.slice(1))}`
              : Identifier.parse(value).toString(),
          );
          tags.set(key, decoded.replace ? values : [...(tags.get(key) ?? []), ...values]);
        }
      }
    }
    return new SystemModuleTags(tags);
  }

  /** Every tag id (without `#`), sorted. */
  ids(): string[] {
    return [...this.raw.keys()].sort();
  }

  /**
   * The entry ids a reference names: `#ns:path` expands the tag (nested tags included, cycles ignored); a plain
   * id is itself. Undefined for an unknown tag.
   */
  resolve(reference: string): string[] | undefined {
    if (!reference.startsWith("#")) return [reference];
    const parsed = Identifier.tryParse(reference.slice(1));
    if (parsed === undefined || !this.raw.has(parsed.toString())) return undefined;
    const found = new Set<string>();
    const visit = (tag: string, seen: Set<string>): void => {
      if (seen.has(tag)) return;
      seen.add(tag);
      for (const value of this.raw.get(tag) ?? [])
        if (value.startsWith("#")) visit(value.slice(1), seen);
        else found.add(value);
    };
    visit(parsed.toString(), new Set());
    return [...found].sort();
  }
}

const listFolder = (folder: string): string[] => {
  try {
    return readdirSync(folder).sort();
  } catch {
    return [];
  }
};
