import { describe, expect, it } from "vitest";
import { contentStub } from "../../../test/support/server-content-stub.js";
import { ItemCatalog } from "./item-catalog.js";
import type { ServerContent, ServerMod } from "./server-content.js";
import { ServerMods } from "./server-mods.js";

/** Content of given mods and items (id → mod display name, English name). */
const content = (mods: readonly ServerMod[], items: Record<string, [string, string]>): ServerContent =>
  contentStub({
    items: () =>
      Object.entries(items).map(([id, [modName, en]]) => ({
        id,
        mod: id.split(":")[0]!,
        modName,
        names: { en_us: en },
      })),
    mods: () => mods,
  });

const CREATE: ServerMod = { id: "create", name: "Create", version: "0.5.1.f", loader: "forge" };
const FLYWHEEL: ServerMod = { id: "flywheel", name: "Flywheel", version: "0.6.10", loader: "forge" };
const TOMS: ServerMod = {
  id: "toms_storage",
  name: "Tom's Simple Storage Mod",
  version: "1.7",
  loader: "forge",
};
const NEW_AGE: ServerMod = {
  id: "create-new-age",
  name: "Create: New Age",
  version: "1.1",
  loader: "fabric",
};
const CREATE_ADDON: ServerMod = {
  id: "createaddition",
  name: "Create Crafts & Additions",
  version: "1.2",
  loader: "forge",
};

describe("the server's mods", () => {
  it("lists every mod by name with its items, library mods and item-only namespaces too", () => {
    const catalog = ItemCatalog.forVersion("1.21.4");
    const mods = new ServerMods(catalog);
    expect(mods.list()).toEqual([]);
    catalog.useContent(
      content([FLYWHEEL, CREATE], {
        "create:cogwheel": ["Create", "Cogwheel"],
        "create:andesite_alloy": ["Create", "Andesite Alloy"],
        "kubejs:steel_plate": ["KubeJS", "Steel Plate"],
      }),
    );
    expect(
      mods
        .list()
        .map((mod) => [mod.name, mod.version, mod.loader, mod.items.map((item) => item.names.en_us)]),
    ).toEqual([
      ["Create", "0.5.1.f", "forge", ["Andesite Alloy", "Cogwheel"]],
      ["Flywheel", "0.6.10", "forge", []],
      ["KubeJS", "", "", ["Steel Plate"]],
    ]);
  });

  it("finds a mod by id or name, else the only one whose id or name starts so; a reload replaces them", () => {
    const catalog = ItemCatalog.forVersion("1.21.4");
    const mods = new ServerMods(catalog);
    catalog.useContent(content([CREATE, CREATE_ADDON, FLYWHEEL], {}));
    expect(mods.find("CREATE")?.id).toBe("create");
    expect(mods.find("create crafts & additions")?.id).toBe("createaddition");
    expect(mods.find("fly")?.id).toBe("flywheel");
    // an id with `_` or `-` is found as written (a button's input, a Tab completion)
    catalog.useContent(content([TOMS, NEW_AGE], {}));
    expect(mods.find("toms_storage")?.id).toBe("toms_storage");
    expect(mods.find("create-new-age")?.id).toBe("create-new-age");
    catalog.useContent(content([CREATE, CREATE_ADDON, FLYWHEEL], {}));
    // two mods start with "cre": neither is guessed
    expect(mods.find("cre")).toBeUndefined();
    expect(mods.search("cre", 5).map((mod) => mod.id)).toEqual(["create", "createaddition"]);
    expect(mods.find("")).toBeUndefined();
    catalog.useContent(content([FLYWHEEL], {}));
    expect(mods.find("create")).toBeUndefined();
    expect(mods.list().map((mod) => mod.id)).toEqual(["flywheel"]);
  });
});
