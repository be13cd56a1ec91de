import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentResult } from "../../src/agent/agent-result.js";
import { AbstractAgentModule } from "../../src/agent/module/abstract-agent-module.js";
import { ActionType } from "../../src/agent/module/action-type.js";
import { ModuleRouting } from "../../src/agent/module/module-routing.js";
import { RoutingProfile } from "../../src/agent/module/routing-profile.js";
import { AssistantServer } from "../../src/assistant/assistant-server.js";
import { systemClock } from "../../src/game/context-types.js";
import { MemoryGameBridge } from "../../src/game/tools/memory-game-bridge.js";
import type { AnyServerModuleType, ServerModule } from "../../src/module/server-module.js";
import { codec } from "../../src/util/codec.js";
import { Identifier } from "../../src/util/identifier.js";
import { MemoryLogger, silentLogger } from "../../src/util/logger.js";
import { writeEntry } from "./assistant-support.js";

const QUESTS = join(import.meta.dirname, "..", "fixtures", "ftbquests", "system-basics");
let folder: string;
let server: AssistantServer;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "system-samples-"));
  // a quest book, so the quest workflows are installed too
  await cp(QUESTS, join(folder, "config", "ftbquests", "quests"), { recursive: true });
  server = await AssistantServer.create({
    clock: systemClock(),
    paths: { dataDir: folder, world: join(folder, "world"), packRoots: [] },
    bridge: new MemoryGameBridge(),
    logger: silentLogger,
    environment: {},
  });
});
afterAll(async () => {
  await server.close();
  await rm(folder, { recursive: true, force: true });
});

describe("built-in routing samples", () => {
  it("give every read-only workflow a read profile with at least 15 samples per language", () => {
    const routes = server.infrastructure.engine.modules();
    const read = routes
      .values()
      .map((module) => ({ id: module.id.toString(), profile: routes.routing(module.id).profile }))
      .filter((entry) => entry.profile?.kind === "read");
    // every read-only workflow a player reaches in plain language: the ones with arguments and without
    expect(read.map((entry) => entry.id).sort()).toEqual([
      "system:balance",
      "system:help",
      "system:item_query",
      "system:mode_show",
      "system:mods",
      "system:player_query",
      "system:points_earning",
      "system:quest",
      "system:question",
      "system:quests",
      "system:shop_catalog",
      "system:shop_orders",
    ]);
    for (const { id, profile } of read) {
      expect(profile?.zh.length, id).toBeGreaterThanOrEqual(15);
      expect(profile?.en.length, id).toBeGreaterThanOrEqual(15);
    }
  });

  it("take a read of one's own data on their topic, and never a change nor someone else's", () => {
    const routes = server.infrastructure.engine.modules();
    const takes = (id: string, text: string): boolean => {
      const profile = routes.routing(id).profile;
      return profile?.onTopic(text) === true && profile.extractor?.(text) !== undefined;
    };
    const reads: Record<string, string[]> = {
      "system:balance": ["我有多少积分", "how many points do I have"],
      "system:shop_orders": ["我的订单", "my orders"],
      "system:shop_catalog": ["商店里有什么", "what does the shop sell", "what can I buy with my points"],
      "system:mode_show": ["我的执行模式", "which execution mode am I in", "who set my execution mode"],
      "system:quests": ["我有什么任务", "what quests can I do"],
      "system:quest": ["任务2的奖励", "what does timber need"],
    };
    const refused: Record<string, string[]> = {
      "system:balance": [
        "给我100积分",
        "transfer 50 points to alex",
        "steve有多少积分",
        "how many hearts do I have",
      ],
      "system:shop_orders": ["取消我的订单", "cancel my order", "alex's orders", "buy 2 bread"],
      "system:shop_catalog": ["用积分买面包", "buy 2 bread", "add apples to the shop", "what did I buy"],
      "system:mode_show": [
        "切换到简单模式",
        "switch me to full mode",
        "我是什么游戏模式",
        "what game mode am I in",
      ],
      "system:quests": ["领取任务奖励", "claim my quest reward", "where am i"],
      "system:quest": ["complete quest 2 for me", "what quests are available", "tell me about secret star"],
    };
    for (const [id, texts] of Object.entries(reads))
      for (const text of texts) expect(takes(id, text), `${id} ${text}`).toBe(true);
    for (const [id, texts] of Object.entries(refused))
      for (const text of texts) expect(takes(id, text), `${id} ${text}`).toBe(false);
  });

  it("never carry allowWeb into a question and have no near-identical twins", () => {
    const routes = server.infrastructure.engine.modules();
    const question = routes.values().find((module) => module.id.toString() === "system:question");
    const extractor = question === undefined ? undefined : routes.routing(question.id).profile?.extractor;
    expect(extractor?.("search the web for diamonds")).toEqual({
      text: "search the web for diamonds",
      allowWeb: false,
    });
    expect(routes.routes.nearDuplicates()).toEqual([]);
  });
});

/** An extension whose samples copy a built-in one. */
class BagModule extends AbstractAgentModule<Record<string, never>> {
  constructor(owner: Identifier) {
    super({
      action: ActionType.of("test:bag", codec(z.object({}).strict() as z.ZodType<Record<string, never>>)),
      description: "Opens the bag (test extension).",
      owner,
      routing: ModuleRouting.defaults<Record<string, never>>().semantic(
        RoutingProfile.hints(["查看我的背包", "打开我的仓库"], ["open my bag"]),
      ),
    });
  }
  async run(): Promise<AgentResult> {
    return AgentResult.success();
  }
}

const BAG_TYPE: AnyServerModuleType = {
  id: Identifier.parse("test:bag"),
  config: codec(z.unknown()),
  create: (id): ServerModule => ({
    id,
    type: Identifier.parse("test:bag"),
    enabledByDefault: true,
    toolModule: false,
    install: (context) => context.engine.registerModule(new BagModule(context.id)),
    storages: () => [],
  }),
};

describe("an extension copying a built-in sample", () => {
  it("is named with the built-in at start", async () => {
    const folder = await mkdtemp(join(tmpdir(), "system-twins-"));
    writeEntry(folder, "test:bag", { type: "test:bag" });
    const logger = new MemoryLogger();
    const twins = await AssistantServer.create({
      clock: systemClock(),
      paths: { dataDir: folder, world: join(folder, "world"), packRoots: [join(folder, "datapacks")] },
      bridge: new MemoryGameBridge(),
      logger,
      environment: {},
      extraTypes: [BAG_TYPE],
    });
    try {
      const warning = logger.lines.filter((line) => line.includes("near-identical"));
      expect(warning).toHaveLength(1);
      expect(warning[0]).toContain("system:player_query");
      expect(warning[0]).toContain("test:bag");
      expect(warning[0]).toContain("查看我的背包");
    } finally {
      await twins.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
