import { argument, greedyString, literal, word } from "@jsprismarine/brigadier";
import { describe, expect, it } from "vitest";
import {
  FixtureModule,
  HELP,
  identity,
  RELOAD,
  routingModules,
  SHOP,
} from "../../../test/support/routing-modules.js";
import { AgentEngine } from "../execution/agent-engine.js";
import { ModuleRouting } from "../module/module-routing.js";
import { AgentCommand } from "./agent-command.js";
import { type CommandOutcome, CommandRegistry, withUsage } from "./command-registry.js";
import type { CommandSource } from "./command-source.js";

const engineWith = () => {
  const engine = new AgentEngine();
  const modules = routingModules();
  for (const module of Object.values(modules)) engine.registerModule(module);
  engine.start();
  return { engine, modules, commands: engine.modules().commands() };
};

const actionOf = (outcome: CommandOutcome) => {
  if (outcome.kind !== "action") throw new Error(`expected an action, got ${JSON.stringify(outcome)}`);
  return { module: outcome.module.id.toString(), input: outcome.action.input };
};

const alice = identity("alice", [SHOP.toString()]);

describe("CommandRegistry", () => {
  it("parses Chinese aliases, with and without /system", async () => {
    const { commands } = engineWith();
    expect(actionOf(await commands.parse("查询物品 minecraft:diamond", alice))).toEqual({
      module: "system:item_query",
      input: { query: "minecraft:diamond", page: 0 },
    });
    expect(actionOf(await commands.parse("/system 物品 钻石", alice)).input).toEqual({
      query: "钻石",
      page: 0,
    });
    expect(actionOf(await commands.parse("玩家信息", alice))).toEqual({
      module: "system:player_query",
      input: {},
    });
  });

  it("keeps greedy argument text with its spaces and case", async () => {
    const { commands } = engineWith();
    const outcome = actionOf(await commands.parse("/system item Diamond Sword  of DOOM", alice));
    expect(outcome.input).toEqual({ query: "Diamond Sword  of DOOM", page: 0 });
  });

  it("reads identifier arguments and refuses malformed ones with the usage", async () => {
    const { commands } = engineWith();
    expect(actionOf(await commands.parse("/buy minecraft:diamond", alice)).input).toEqual({
      item: "minecraft:diamond",
      count: 1,
    });
    expect(actionOf(await commands.parse("/system 购买 stone", alice)).input).toEqual({
      item: "minecraft:stone",
      count: 1,
    });
    const bad = await commands.parse("/system buy Not An Id!", alice);
    expect(bad).toMatchObject({
      kind: "failure",
      failure: { code: "INPUT_INVALID", args: ["/system buy <item>"] },
    });
  });

  it("matches English literal heads without case but keeps the argument as typed", async () => {
    const { commands } = engineWith();
    expect(actionOf(await commands.parse("/SYSTEM ITEM Stone", alice)).input).toEqual({
      query: "Stone",
      page: 0,
    });
    expect(actionOf(await commands.parse("Me", alice)).module).toBe("system:player_query");
    expect(actionOf(await commands.parse("／ＨＥＬＰ", alice)).input).toEqual({ topic: "" });
  });

  it("answers a syntax error in a known command with INPUT_INVALID and its usage", async () => {
    const { commands } = engineWith();
    const outcome = await commands.parse("/system item", alice);
    expect(outcome).toMatchObject({
      kind: "failure",
      failure: { code: "INPUT_INVALID", key: "system.command.usage", args: ["/system item <query>"] },
    });
    expect(await commands.parse("/me too", alice)).toMatchObject({ failure: { code: "INPUT_INVALID" } });
  });

  it("answers an unknown slash command with UNKNOWN_COMMAND; plain text is not a command", async () => {
    const { commands } = engineWith();
    expect(await commands.parse("/system teleport home", alice)).toMatchObject({
      kind: "failure",
      failure: { code: "UNKNOWN_COMMAND", args: ["teleport"] },
    });
    expect(await commands.parse("teleport home", alice)).toEqual({ kind: "none" });
    expect(await commands.parse("me too please", alice)).toEqual({ kind: "none" });
    expect(await commands.parse("item", alice)).toEqual({ kind: "none" });
  });

  it("hides commands of features the player does not have and honours custom requires", async () => {
    const { commands } = engineWith();
    const bob = identity("bob");
    expect(await commands.parse("/buy minecraft:diamond", bob)).toMatchObject({
      failure: { code: "UNKNOWN_COMMAND" },
    });
    expect(await commands.parse("/reload", alice)).toMatchObject({ failure: { code: "UNKNOWN_COMMAND" } });
    expect(actionOf(await commands.parse("/reload", identity("op", [], 2))).input).toEqual({ scope: "all" });
  });

  it("refuses an input that fails the module codec and an action of another module", async () => {
    const engine = new AgentEngine();
    const { item } = routingModules();
    const rogue = new FixtureModule<{ scope: string }>({
      action: RELOAD,
      description: "Emits another module's action.",
      routing: ModuleRouting.structuredOnly<{ scope: string }>().command(
        AgentCommand.custom(["rogue"], (alias) =>
          literal<CommandSource>(alias).executes(async (context) => {
            context.getSource().action(HELP.action({ topic: "" }));
            return 1;
          }),
        ),
      ),
    });
    const broken = new FixtureModule<{ topic: string }>({
      action: HELP,
      description: "Throws while parsing.",
      routing: ModuleRouting.structuredOnly<{ topic: string }>().command(
        AgentCommand.custom(["broken"], (alias) =>
          literal<CommandSource>(alias).executes(() => {
            throw new Error("bug");
          }),
        ),
      ),
    });
    engine.registerModule(item);
    engine.registerModule(rogue);
    engine.registerModule(broken);
    engine.start();
    const commands = engine.modules().commands();
    expect(await commands.parse(`/item ${"x".repeat(300)}`, alice)).toMatchObject({
      kind: "failure",
      failure: { code: "INPUT_INVALID", args: ["/system item <query>"] },
    });
    expect(await commands.parse("/rogue", alice)).toMatchObject({
      kind: "failure",
      failure: { code: "MODULE_FAILED" },
    });
    expect(await commands.parse("broken", alice)).toMatchObject({
      kind: "failure",
      failure: { code: "MODULE_FAILED" },
    });
  });

  it("rejects an alias used by two modules, whatever its case", () => {
    const engine = new AgentEngine();
    engine.registerModule(routingModules().item);
    const clash = new FixtureModule<{ topic: string }>({
      action: HELP,
      description: "Clashes.",
      routing: ModuleRouting.defaults<{ topic: string }>().command(
        AgentCommand.literal({ topic: "" }, "ITEM"),
      ),
    });
    expect(() => engine.registerModule(clash)).toThrow(/alias "item" is already used by system:item_query/);
    expect(engine.modules().get("system:help")).toBeUndefined();
  });

  it("keeps the server's own aliases: a feature's module that reuses one registers without it", async () => {
    const engine = new AgentEngine();
    const { reload, shop } = routingModules();
    engine.registerModule(reload);
    const extension = new FixtureModule<{ topic: string }>({
      action: HELP,
      description: "Reuses reload.",
      owner: SHOP,
      routing: ModuleRouting.defaults<{ topic: string }>().command(
        AgentCommand.literal({ topic: "" }, "RELOAD", "tidy"),
      ),
    });
    engine.registerModule(extension);
    engine.registerModule(shop);
    engine.start();
    const commands = engine.modules().commands();
    expect(
      commands.dropped().map((lost) => [lost.alias, lost.module.id.toString(), lost.holder.id.toString()]),
    ).toEqual([["reload", "system:help", "system:reload"]]);
    expect(commands.moduleOf("reload")?.id.toString()).toBe("system:reload");
    expect(actionOf(await commands.parse("/reload", identity("op", [SHOP.toString()], 2))).module).toBe(
      "system:reload",
    );
    expect(actionOf(await commands.parse("/tidy", identity("op", [SHOP.toString()], 2))).module).toBe(
      "system:help",
    );
    // between two features (or against a feature) a reused alias is still an error
    const clash = new AgentEngine();
    clash.registerModule(routingModules().shop);
    const other = new FixtureModule<{ topic: string }>({
      action: HELP,
      description: "Reuses buy.",
      owner: SHOP,
      routing: ModuleRouting.defaults<{ topic: string }>().command(
        AgentCommand.literal({ topic: "" }, "buy"),
      ),
    });
    expect(() => clash.registerModule(other)).toThrow(/alias "buy" is already used by system:shop/);
  });

  it("leaves out of completions and the tree the modules a filter does not show (a model workflow while AI is off)", async () => {
    const { commands } = engineWith();
    const hideItem = (module: { id: { toString(): string } }) => module.id.toString() !== "system:item_query";
    expect(await commands.completions("/system ", alice, hideItem)).not.toContain("item");
    expect(await commands.completions("/system ", alice, hideItem)).toContain("buy");
    expect(await commands.completions("/system item minecraft:dia", alice, hideItem)).toEqual([]);
    expect(commands.tree(alice, hideItem).map((node) => node.name)).not.toContain("item");
    expect(commands.tree(alice).map((node) => node.name)).toContain("item");
    // parsing is unchanged: the filter decides what is offered, not what runs
    expect(actionOf(await commands.parse("/item stone", alice)).module).toBe("system:item_query");
  });

  it("completes heads and filters completions by permission and installed modules", async () => {
    const { commands } = engineWith();
    expect(await commands.completions("/system ", alice)).toEqual(
      expect.arrayContaining(["buy", "help", "item", "me", "物品", "购买"]),
    );
    expect(await commands.completions("/system ", alice)).not.toContain("reload");
    expect(await commands.completions("/system ", identity("op", [], 2))).toContain("reload");
    expect(await commands.completions("/system ", identity("bob"))).not.toContain("buy");
    expect(await commands.completions("I", alice)).toEqual(["item"]);
    expect(await commands.completions("/system 购", alice)).toEqual(["购买"]);
  });

  it("exposes the per-player tree that clients will receive", () => {
    const { commands } = engineWith();
    const names = (player: ReturnType<typeof identity>) => commands.tree(player).map((node) => node.name);
    expect(names(alice)).toContain("confirm");
    expect(names(identity("bob"))).not.toContain("confirm");
    const item = commands.tree(alice).find((node) => node.name === "item");
    expect(item).toMatchObject({
      kind: "literal",
      executable: false,
      children: [{ name: "query", kind: "argument", executable: true }],
    });
  });

  it("shows every form of a mistyped command: optional arguments, literal choices, argument shapes", async () => {
    const registry = new CommandRegistry();
    const module = new FixtureModule<{ topic: string }>({ action: HELP, description: "Forms." });
    const take = async (context: { getSource(): CommandSource }) => {
      context.getSource().action({ topic: "x" });
      return 1;
    };
    registry.register(module, [
      AgentCommand.custom(["grant"], (name) =>
        literal<CommandSource>(name).then(
          argument<CommandSource, string>("player", word())
            .executes(take)
            .then(argument<CommandSource, string>("feature", greedyString()).executes(take)),
        ),
      ),
      AgentCommand.custom(["mode"], (name) => {
        const node = literal<CommandSource>(name);
        for (const mode of ["simple", "full"])
          node.then(
            literal<CommandSource>(mode)
              .executes(take)
              .then(argument<CommandSource, string>("player", word()).executes(take)),
          );
        return node;
      }),
      AgentCommand.custom(["notes"], (name) =>
        literal<CommandSource>(name)
          .then(
            literal<CommandSource>("add").then(
              argument<CommandSource, string>(
                "entry",
                withUsage(greedyString(), "<title> | <body>"),
              ).executes(take),
            ),
          )
          .then(
            literal<CommandSource>("remove").then(
              argument<CommandSource, string>("id", word()).executes(take),
            ),
          ),
      ),
    ]);
    const usage = async (line: string) => {
      const outcome = await registry.parse(line, alice);
      return outcome.kind === "failure" ? outcome.failure.args : outcome.kind;
    };
    expect(await usage("/system grant")).toEqual(["/system grant <player> [feature]"]);
    expect(await usage("/system mode")).toEqual(["/system mode full|simple [player]"]);
    expect(await usage("/system notes add")).toEqual([
      "/system notes add <title> | <body>; /system notes remove <id>",
    ]);
    expect(registry.usages("notes", alice)).toEqual(["notes add <title> | <body>", "notes remove <id>"]);
  });
});
