import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentLifecycles } from "../agent/agent-lifecycle.js";
import { AgentResult } from "../agent/agent-result.js";
import { AgentCommand } from "../agent/command/agent-command.js";
import { AgentEngine } from "../agent/execution/agent-engine.js";
import type { ExecutionContext } from "../agent/execution/execution-context.js";
import { customFailure } from "../agent/failure.js";
import { AbstractAgentModule } from "../agent/module/abstract-agent-module.js";
import { ActionType } from "../agent/module/action-type.js";
import { ServiceContext } from "../agent/module/context-type.js";
import type { ModuleRegistry } from "../agent/module/module-registry.js";
import { ModuleRouting } from "../agent/module/module-routing.js";
import { literal } from "../agent/text.js";
import { type AnyTool, Tool } from "../agent/tool/tool.js";
import { ToolType } from "../agent/tool/tool-type.js";
import { type Codec, codec, type Json } from "../util/codec.js";
import { Identifier } from "../util/identifier.js";
import { MemoryLogger } from "../util/logger.js";
import { Registry } from "../util/registry.js";
import { FeatureSwitches } from "./feature-switches.js";
import { ModuleManager } from "./module-manager.js";
import { AccessStore } from "./permissions/access-store.js";
import { PermissionService } from "./permissions/permission-service.js";
import type {
  AnyServerModuleType,
  ServerModule,
  ServerModuleContext,
  SystemModuleEntry,
} from "./server-module.js";
import { SystemModuleTags } from "./system-module-tags.js";

const INPUT = codec(z.object({}));
const GREET = ActionType.of("test:greet", INPUT);
const GIVE = ToolType.of("test:give", INPUT, codec(z.string()));

/** A workflow built without an owner, as an extension writes it: the manager stamps it. */
class Greet extends AbstractAgentModule<Record<string, never>> {
  constructor(
    private readonly word: string,
    tool: AnyTool,
  ) {
    super({
      action: GREET,
      description: "Greets.",
      tools: [tool],
      routing: ModuleRouting.defaults<Record<string, never>>().command(AgentCommand.literal({}, "greet")),
    });
  }
  async run(_input: Record<string, never>, context: ExecutionContext): Promise<AgentResult> {
    const given = await context.tool(GIVE, "give", {});
    return AgentResult.success(literal(`${this.word} ${given}`));
  }
}

const greetType = (options: { infrastructure?: boolean } = {}) => ({
  id: Identifier.parse("test:greeter"),
  config: codec(z.object({ word: z.string().default("hi") })) as Codec<{ word: string }>,
  create: (id: Identifier, config: { word: string }): ServerModule => ({
    id,
    type: Identifier.parse("test:greeter"),
    enabledByDefault: true,
    toolModule: false,
    ...(options.infrastructure === true ? { infrastructure: true } : {}),
    install(context: ServerModuleContext) {
      const tool = Tool.of(GIVE, async () => config.word).asReadOnly() as unknown as AnyTool;
      context.engine.registerModule(new Greet(config.word, tool));
    },
    storages: () => [],
  }),
});

const entry = (id: string, server: Json = {}, extra: Partial<SystemModuleEntry> = {}): SystemModuleEntry => ({
  id: Identifier.parse(id),
  type: Identifier.parse("test:greeter"),
  enabled: true,
  enabledByDefault: undefined,
  server,
  client: {},
  source: `${id}.json`,
  ...extra,
});

const setUp = (type: AnyServerModuleType, entries: SystemModuleEntry[], engine = new AgentEngine()) => {
  const logger = new MemoryLogger();
  const types = new Registry<AnyServerModuleType>("types");
  types.register(type.id, type);
  const switches = new FeatureSwitches(undefined, logger);
  const manager = new ModuleManager({ types, engine, switches, tags: SystemModuleTags.empty(), logger });
  manager.install(entries, new ServiceContext<AgentEngine, ModuleRegistry>(engine, engine.modules()));
  engine.start();
  return { engine, manager, logger, switches };
};

const run = (engine: AgentEngine, features: string[]) =>
  engine.execute(GREET.action({}), {
    requestId: "r",
    playerId: "p",
    locale: "en_us",
    features: new Set(features),
  });

describe("ModuleManager", () => {
  it("stamps the feature as owner of the workflows and tools it registers", async () => {
    const { engine } = setUp(greetType() as unknown as AnyServerModuleType, [entry("test:one")]);
    const module = engine.modules().get("test:greet");
    expect(module?.owner?.toString()).toBe("test:one");
    expect(module?.tools[0]?.owner?.toString()).toBe("test:one");
    expect((await run(engine, ["test:one"])).message).toEqual(literal("hi hi"));
    expect((await run(engine, [])).failure?.code).toBe("MODULE_DISABLED");
  });

  it("leaves an infrastructure feature's workflows unowned", () => {
    const { engine } = setUp(greetType({ infrastructure: true }) as unknown as AnyServerModuleType, [
      entry("test:core"),
    ]);
    expect(engine.modules().get("test:greet")?.owner).toBeUndefined();
  });

  it("refuses a workflow registered without owner outside any feature", () => {
    const engine = new AgentEngine();
    engine.registerModule(new Greet("x", Tool.of(GIVE, async () => "x") as unknown as AnyTool));
    expect(() => setUp(greetType() as unknown as AnyServerModuleType, [], engine)).toThrow(
      /workflow test:greet has no owner/,
    );
  });

  it("runs the configuration whose owner the player has, when a type is configured twice", async () => {
    const { engine, manager } = setUp(greetType() as unknown as AnyServerModuleType, [
      entry("test:plain", { word: "hi" }),
      entry("test:vip", { word: "welcome" }, { enabledByDefault: false }),
    ]);
    expect(
      engine
        .modules()
        .variants("test:greet")
        .map((module) => module.owner?.toString()),
    ).toEqual(["test:plain", "test:vip"]);
    expect((await run(engine, ["test:plain"])).message).toEqual(literal("hi hi"));
    expect((await run(engine, ["test:vip"])).message).toEqual(literal("welcome welcome"));
    expect(manager.exclusiveGroups()).toEqual([["test:plain", "test:vip"]]);
  });

  it("keeps one owner per action in a player's snapshot: a grant beats a default", async () => {
    const { manager, logger } = setUp(greetType() as unknown as AnyServerModuleType, [
      entry("test:plain"),
      entry("test:vip", { word: "welcome" }, { enabledByDefault: false }),
    ]);
    const access = new AccessStore(undefined, logger);
    const permissions = new PermissionService({
      access,
      modules: manager,
      lifecycles: new AgentLifecycles(),
    });
    expect([...permissions.snapshot("steve").features]).toEqual(["test:plain"]);
    await permissions.update("alex", () => ({ features: { "test:vip": true } }));
    expect([...permissions.snapshot("alex").features]).toEqual(["test:vip"]);
  });

  it("switches a feature off and on for everyone, persisted, and never an infrastructure one", async () => {
    const folder = join(tmpdir(), `switches-${process.pid}-${Date.now()}`);
    mkdirSync(folder, { recursive: true });
    const { manager, switches, logger } = setUp(greetType() as unknown as AnyServerModuleType, [
      entry("test:plain"),
    ]);
    expect(await manager.setEnabled("test:plain", false)).toBe("changed");
    expect(manager.enabled("test:plain")).toBe(false);
    expect(switches.of("test:plain")).toBe(false);
    expect(await manager.setEnabled("test:plain", false)).toBe("unchanged");
    expect(await manager.setEnabled("test:none", false)).toBe("unknown");
    const saved = new FeatureSwitches(join(folder, "features.json"), logger);
    await saved.reload();
    await saved.switch("test:plain", false);
    const again = new FeatureSwitches(join(folder, "features.json"), logger);
    await again.reload();
    expect(again.of("test:plain")).toBe(false);
    const core = setUp(greetType({ infrastructure: true }) as unknown as AnyServerModuleType, [
      entry("test:core"),
    ]);
    expect(await core.manager.setEnabled("test:core", false)).toBe("infrastructure");
  });

  it("installs an entry that is off, so switching it on needs no restart", () => {
    const { manager, engine } = setUp(greetType() as unknown as AnyServerModuleType, [
      entry("test:plain", {}, { enabled: false }),
    ]);
    expect(manager.enabled("test:plain")).toBe(false);
    expect(engine.modules().get("test:greet")?.owner?.toString()).toBe("test:plain");
  });
});

describe("ModuleManager.applyEntries (reload)", () => {
  it("swaps in a changed config and adds a new entry of an installed type; running requests keep the old one", async () => {
    const { engine, manager } = setUp(greetType() as unknown as AnyServerModuleType, [
      entry("test:plain", { word: "hi" }),
    ]);
    const reload = manager.applyEntries(
      [
        entry("test:plain", { word: "hello" }),
        entry("test:vip", { word: "welcome" }, { enabledByDefault: false }),
      ],
      SystemModuleTags.empty(),
    );
    expect(reload).toEqual({ applied: ["test:plain", "test:vip"], restart: [], installed: [] });
    expect((await run(engine, ["test:plain"])).message).toEqual(literal("hello hello"));
    expect((await run(engine, ["test:vip"])).message).toEqual(literal("welcome welcome"));
    expect(manager.get("test:vip")?.enabledByDefault).toBe(false);
  });

  it("leaves a changed type, an unknown type or an invalid config for a restart, keeping what runs", async () => {
    const { engine, manager, logger } = setUp(greetType() as unknown as AnyServerModuleType, [
      entry("test:plain", { word: "hi" }),
    ]);
    const reload = manager.applyEntries(
      [entry("test:plain", { word: 7 }), entry("test:odd", {}, { type: Identifier.parse("test:unknown") })],
      SystemModuleTags.empty(),
    );
    expect(reload.restart).toEqual(["test:odd", "test:plain"]);
    expect(logger.has("invalid server config")).toBe(true);
    expect((await run(engine, ["test:plain"])).message).toEqual(literal("hi hi"));
  });
});

describe("a feature that lacks something on this server (no quest files)", () => {
  const NO_WORDS = customFailure("NO_WORDS", "test.no_words");
  /** A greeter that has nothing to say until `words.ready`, as the quests feature without quest files. */
  const lackingType = (words: { ready: boolean; closed: number }) => ({
    id: Identifier.parse("test:greeter"),
    config: codec(z.object({})) as Codec<Record<string, never>>,
    create: (id: Identifier): ServerModule => {
      const ready = words.ready;
      return {
        id,
        type: Identifier.parse("test:greeter"),
        enabledByDefault: true,
        toolModule: false,
        install(context: ServerModuleContext) {
          const tool = Tool.of(GIVE, async () => "words").asReadOnly() as unknown as AnyTool;
          context.engine.registerModule(new Greet(ready ? "ready" : "empty", tool));
        },
        unavailable: () => (ready ? undefined : { reason: "no words here", failure: NO_WORDS }),
        close: () => {
          words.closed += 1;
        },
        storages: () => [],
      };
    },
  });

  it("waits unseen, tells a player who types its command why, and is installed by the reload that finds it", async () => {
    const words = { ready: false, closed: 0 };
    const type = lackingType(words) as unknown as AnyServerModuleType;
    const { engine, manager, logger } = setUp(type, [entry("test:late")]);
    expect(manager.isInstalled("test:late")).toBe(false);
    expect(manager.statuses().map((status) => status.id)).not.toContain("test:late");
    expect(logger.has("feature test:late is not installed: no words here")).toBe(true);
    expect(logger.lines.filter((line) => line.startsWith("WARN"))).toEqual([]);
    expect(manager.waitingCommand("/system greet")).toEqual(NO_WORDS);
    expect(manager.waitingCommand("greet")).toEqual(NO_WORDS);
    expect(manager.waitingCommand("hello there")).toBeUndefined();

    // still lacking: the reload is quiet and changes nothing
    expect(manager.applyEntries([entry("test:late")], SystemModuleTags.empty())).toEqual({
      applied: [],
      restart: [],
      installed: [],
    });
    expect(manager.isInstalled("test:late")).toBe(false);

    words.ready = true;
    expect(manager.applyEntries([entry("test:late")], SystemModuleTags.empty())).toEqual({
      applied: ["test:late"],
      restart: [],
      installed: ["test:late"],
    });
    expect(manager.isInstalled("test:late")).toBe(true);
    expect(manager.enabled("test:late")).toBe(true);
    expect(manager.waitingCommand("greet")).toBeUndefined();
    expect((await run(engine, ["test:late"])).message).toEqual(literal("ready words"));
    // the waiting install and the one the quiet reload tried are both closed
    expect(words.closed).toBe(2);
  });
});

describe("SystemModuleTags", () => {
  it("reads tags from pack roots, expands nested tags, ignores cycles and appends across roots", () => {
    const roots = [0, 1].map((index) => join(tmpdir(), `tags-${process.pid}-${Date.now()}-${index}`));
    const write = (root: string, name: string, values: string[], replace = false) => {
      const folder = join(root, "data", "vip", "tags", "system_module");
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `${name}.json`), JSON.stringify({ replace, values }));
    };
    write(roots[0] as string, "members", ["vip:check_in", "#vip:extra"]);
    write(roots[0] as string, "extra", ["vip:shop", "#vip:members"]);
    write(roots[1] as string, "members", ["vip:kit"]);
    const tags = SystemModuleTags.read(roots, new MemoryLogger());
    expect(tags.resolve("#vip:members")).toEqual(["vip:check_in", "vip:kit", "vip:shop"]);
    expect(tags.resolve("#vip:none")).toBeUndefined();
    expect(tags.resolve("vip:plain")).toEqual(["vip:plain"]);
    expect(tags.ids()).toEqual(["vip:extra", "vip:members"]);
  });
});
