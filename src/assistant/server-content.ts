import { join } from "node:path";
import { buildContentCatalog } from "../data/content/content-build.js";
import type { ItemCatalog } from "../game/data/item-catalog.js";
import type { Logger } from "../util/logger.js";

/**
 * Reads the server's own content (its game jar, mods, resource packs, datapacks, KubeJS of `serverDir`) and puts
 * it beside the vanilla items of `catalog`: at start and on `/system reload`. Layers whose files did not change
 * come from `<world>/system/content-cache.json`. Without a server folder the catalog stays vanilla.
 */
export const loadServerContent = async (options: {
  readonly serverDir: string | undefined;
  readonly world: string;
  readonly catalog: ItemCatalog;
  readonly logger: Logger;
}): Promise<void> => {
  const { serverDir, logger } = options;
  if (serverDir === undefined) return;
  const { catalog, stats } = await buildContentCatalog({
    serverDir,
    logger,
    cacheFile: join(options.world, "system", "content-cache.json"),
  });
  options.catalog.useContent(catalog);
  let items = 0;
  for (const _ of catalog.items()) items++;
  logger.info(
    `content: ${catalog.mods().length} mods, ${items} modded items, ${catalog.counts.recipes} recipes from ${serverDir}` +
      (catalog.gameJar === undefined ? " " : `, vanilla's recipes and tags from ${catalog.gameJar} `) +
      `(${stats.sources} files, ${stats.fromSnapshot ? "all from the snapshot" : `${stats.fromCache} from the cache`}, ${stats.millis} ms${catalog.issues.length > 0 ? `, ${catalog.issues.length} problems logged` : ""})`,
  );
};
