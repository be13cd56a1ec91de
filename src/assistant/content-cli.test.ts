import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeContentServer } from "../../test/support/content-pack.js";
import { contentCommand } from "./content-cli.js";

const capture = () => {
  let text = "";
  return { stream: { write: (chunk: string) => (text += chunk) }, text: () => text };
};

describe("npx system content", () => {
  let serverDir: string;
  beforeAll(async () => {
    serverDir = mkdtempSync(join(tmpdir(), "system-content-cli-"));
    await writeContentServer(serverDir);
  });
  afterAll(() => rmSync(serverDir, { recursive: true, force: true }));

  const run = async (args: string[], input?: string) => {
    const out = capture();
    const err = capture();
    const code = await contentCommand(args, {
      out: out.stream,
      err: err.stream,
      ...(input === undefined ? {} : { input: Readable.from([input]) }),
    });
    return { code, out: out.text(), err: err.text() };
  };

  it("inspect lists the mods, names per locale, recipes by type, datapacks, KubeJS read and unread, errors", async () => {
    const text = await run(["inspect", serverDir]);
    expect(text.code).toBe(0);
    expect(text.out).toContain("create — Create 0.5.1.f (forge) mods/create-1.20.1-0.5.1.f.jar");
    expect(text.out).toContain("zh_cn: 23 named, 1 without a name");
    expect(text.out).toContain("create:mixing: 2");
    expect(text.out).toContain("datapacks: world/datapacks/steel");
    expect(text.out).toContain("2 script statements not readable statically");
    const json = JSON.parse((await run(["inspect", serverDir, "--json"])).out);
    expect(json.mods).toHaveLength(7);
    expect(json.recipes.byType["ae2:inscriber"]).toBe(1);
    expect(json.kubejs).toMatchObject({ present: true, removals: 1, items: 1, unread: 2 });
    expect(json.errors).toEqual([]);
  });

  it("item answers as the card does, by id or name, in a locale, as JSON, and one line per --stdin line", async () => {
    const zh = await run(["item", "安山合金", "--server-dir", serverDir, "--locale", "zh_cn"]);
    expect(zh.out).toBe(
      "安山合金 — create:andesite_alloy (Create) | 工作台: 2× 铁粒, 2× 安山岩 → 1 | 混合搅拌: 1× 安山岩, 1× 铁粒 → 1\n",
    );
    const json = JSON.parse((await run(["item", "raw osmium", "--server-dir", serverDir, "--json"])).out);
    expect(json).toMatchObject({
      id: "mekanism:raw_osmium",
      mod: "mekanism",
      names: { en_us: "Raw Osmium", zh_cn: "粗锇" },
      recipes: [],
      droppedBy: ["mekanism:osmium_ore"],
    });
    const steel = JSON.parse(
      (await run(["item", "mekanism:ingot_steel", "--server-dir", serverDir, "--json"])).out,
    );
    expect(steel.recipes[0]).toEqual({
      type: "minecraft:smelting",
      station: "furnace",
      inputs: [{ item: "mekanism:dust_steel", count: 1, name: "Steel Dust" }],
      outputs: [{ item: "mekanism:ingot_steel", count: 1 }],
    });
    const lines = await run(
      ["item", "--stdin", "--server-dir", serverDir, "--json"],
      "ae2:logic_processor\nno such thing\n\n",
    );
    const answers = lines.out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(answers.map((answer) => answer.id ?? answer.error)).toEqual(["ae2:logic_processor", "not found"]);
    expect(lines.code).toBe(1);
    expect((await run(["item", "x"])).code).toBe(2);
  });
});
