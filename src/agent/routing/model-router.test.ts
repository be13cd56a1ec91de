import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { FixtureModule, routingModules, SHOP } from "../../../test/support/routing-modules.js";
import { AssistantServer } from "../../assistant/assistant-server.js";
import { systemClock } from "../../game/context-types.js";
import { MemoryGameBridge } from "../../game/tools/memory-game-bridge.js";
import { codec } from "../../util/codec.js";
import { silentLogger } from "../../util/logger.js";
import { offlineUuid } from "../../util/offline-uuid.js";
import { AgentEngine } from "../execution/agent-engine.js";
import { BudgetCounters, modelInputBytes } from "../execution/budget-counters.js";
import type { ModelPort, ModelRequest } from "../model/model-client.js";
import { PromptNames } from "../model/prompt-source.js";
import { ActionType } from "../module/action-type.js";
import type { AnyAgentModule } from "../module/agent-module.js";
import { ModuleRouting } from "../module/module-routing.js";
import { inputSignature } from "./input-signature.js";
import {
  ModelRouter,
  ROUTER_HISTORY_CHARS,
  ROUTER_HISTORY_TURNS,
  ROUTER_TEXT_CHARS,
  type RouterRequest,
} from "./model-router.js";
import type { RoutingPlayer } from "./routing-player.js";

/** The bytes the OpenAI-compatible client sends: the system message plus the user JSON as text. */
const sentBytes = (request: RouterRequest): number =>
  Buffer.byteLength(request.system, "utf8") + Buffer.byteLength(JSON.stringify(request.user), "utf8");

/** A model that records what it was asked and replies with the next scripted text. */
const recordingModel = (replies: string[]) => {
  const requests: ModelRequest[] = [];
  const port: ModelPort = {
    call: async (request) => {
      requests.push(request);
      return {
        text: replies.shift() ?? '{"capabilityId":"clarify"}',
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    },
  };
  return { port, requests };
};

const fixture = (model?: ModelPort) => {
  const engine = new AgentEngine();
  for (const module of Object.values(routingModules())) engine.registerModule(module);
  engine.start();
  const router = new ModelRouter({ modules: engine.modules(), model, system: () => "Route it." });
  return { engine, router };
};

const player = (features: readonly string[] = []): RoutingPlayer => ({
  playerId: "alice",
  permissionLevel: 0,
  features: new Set(features),
  locale: "en_us",
  aiEnabled: true,
  generation: 0,
});

describe("inputSignature", () => {
  it("writes property names, types, enums and optional marks, generically", () => {
    const schema = (type: z.ZodType) => z.toJSONSchema(type, { unrepresentable: "any" });
    expect(inputSignature(schema(z.object({})))).toBe("{}");
    expect(inputSignature(schema(z.object({ query: z.string().min(1), page: z.number().int() })))).toBe(
      "{query: string, page: integer}",
    );
    expect(inputSignature(schema(z.object({ field: z.enum(["health", "food"]).optional() })))).toBe(
      "{field?: 'health'|'food'}",
    );
    expect(inputSignature(schema(z.object({ allowWeb: z.boolean().default(false) })))).toBe(
      "{allowWeb?: boolean}",
    );
    expect(
      inputSignature(
        schema(
          z.object({
            tags: z.array(z.union([z.string(), z.number()])),
            "odd key": z.object({ at: z.literal("x") }),
            note: z.string().nullable(),
          }),
        ),
      ),
    ).toBe("{tags: (string|number)[], \"odd key\": {at: 'x'}, note: string|null}");
    expect(inputSignature(schema(z.record(z.string(), z.number())))).toBe("{[key: string]: number}");
    expect(inputSignature(undefined)).toBe("any");
  });
});

describe("ModelRouter request", () => {
  it("puts the static catalog before the variable history and request, and caps both", async () => {
    const { port, requests } = recordingModel(['{"capabilityId":"clarify"}']);
    const { engine, router } = fixture(port);
    const long = "x".repeat(10_000);
    const history = Array.from({ length: 8 }, (_, turn) => ({
      role: turn % 2 === 0 ? ("user" as const) : ("assistant" as const),
      text: `turn ${turn} ${"y".repeat(1_000)}`,
    }));
    const routed = await router.route({
      requestId: "r1",
      text: long,
      player: player([SHOP.toString()]),
      modules: engine.modules().values(),
      counters: new BudgetCounters(),
      history,
    });
    expect(routed.kind).toBe("clarify");
    const sent = requests[0]!;
    expect(Object.keys(sent.user)).toEqual(["capabilities", "context", "request"]);
    const serialized = JSON.stringify(sent.user);
    expect(serialized.indexOf('"capabilities"')).toBeLessThan(serialized.indexOf('"context"'));
    expect(serialized.indexOf('"context"')).toBeLessThan(serialized.indexOf('"request"'));
    const request = sent.user.request as string;
    expect([...request].length).toBe(ROUTER_TEXT_CHARS + 1);
    expect(request.endsWith("…")).toBe(true);
    const turns = (sent.user.context as { history: { text: string }[] }).history;
    expect(turns.map((turn) => turn.text.slice(0, 6))).toEqual(["turn 4", "turn 5", "turn 6", "turn 7"]);
    for (const turn of turns) expect(turn.text.length).toBeLessThanOrEqual(201);
    // on top of the same call with an empty text: the cut request and four cut turns (ASCII: a byte a character)
    const empty = modelInputBytes(router.request({ text: "", modules: engine.modules().values() }));
    expect(modelInputBytes(sent) - empty).toBeLessThanOrEqual(
      ROUTER_TEXT_CHARS + 3 + ROUTER_HISTORY_TURNS * (ROUTER_HISTORY_CHARS + 40) + 30,
    );
    // the catalog bytes do not depend on the request or the history (a provider can cache the prefix)
    const short = router.request({ text: "hi", modules: engine.modules().values() });
    const prefix = (user: object): string =>
      JSON.stringify(user).split(',"context"')[0]!.split(',"request"')[0]!;
    expect(prefix(short.user)).toBe(prefix(sent.user));
  });

  it("describes capabilities compactly and keeps the decode contract", () => {
    const { engine, router } = fixture();
    const modules = engine.modules().values();
    const catalog = router.catalog(modules);
    const item = catalog.find((entry) => entry.capabilityId === "system:item_query");
    expect(item).toEqual({
      capabilityId: "system:item_query",
      description: "Look up an item by id",
      input: "{query:str,page:int}",
    });
    expect(catalog.find((entry) => entry.capabilityId === "system:quest_detail")?.explicitOnly).toBe(true);
    expect(catalog.find((entry) => entry.capabilityId === "system:player_query")).toEqual({
      capabilityId: "system:player_query",
      description: "Show the player's own information",
    });
    // one line each, without the default namespace; `!` marks an explicit-only capability
    const sent = router.request({ text: "hi", modules }).user.capabilities as string[];
    expect(sent).toContain("item_query{query:str,page:int}: Look up an item by id");
    expect(sent).toContain("!quest_detail{quest:str}: Show one quest");
    expect(sent.at(-1)).toBe("clarify");
    // a reply may name the capability as the catalog shows it or by its full id
    const short = router.decode('{"capabilityId":"player_query","input":{}}', modules);
    expect(short.kind === "module" ? short.module.id.toString() : short.kind).toBe("system:player_query");
    const decoded = router.decode(
      '{"capabilityId":"system:item_query","input":{"query":"minecraft:diamond","page":0}}',
      modules,
    );
    expect(decoded.kind === "module" ? decoded.action.input : undefined).toEqual({
      query: "minecraft:diamond",
      page: 0,
    });
    expect(router.decode('{"capabilityId":"system:nope","input":{}}', modules).kind).toBe("invalid");
    expect(router.decode('{"capabilityId":"clarify"}', modules).kind).toBe("clarify");
  });

  it("gives the workflow the whole text when the model copied the cut request", () => {
    const { engine, router } = fixture();
    const modules = engine.modules().values();
    const whole = `${"where is it ".repeat(60)}end`;
    const cut = router.request({ text: whole, modules }).user.request as string;
    const reply = JSON.stringify({ capabilityId: "system:quest_detail", input: { quest: cut } });
    const decoded = router.decode(reply, modules, whole);
    expect(decoded.kind === "module" ? decoded.action.input : undefined).toEqual({ quest: whole });
  });
});

describe("the built-in catalog", () => {
  let server: AssistantServer;
  let folder: string;
  let router: ModelRouter;
  let modules: readonly AnyAgentModule[];
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "system-model-router-"));
    const bridge = new MemoryGameBridge();
    server = await AssistantServer.create({
      clock: systemClock(),
      paths: { dataDir: folder, world: join(folder, "world"), packRoots: [] },
      bridge,
      logger: silentLogger,
      environment: {},
    });
    const uuid = offlineUuid("Alex");
    bridge.join(uuid, "Alex");
    await server.join({ uuid, name: "Alex", locale: "en_us", opLevel: 0 });
    const snapshot = server.permissions.snapshot(uuid);
    const routing: RoutingPlayer = { ...player(), playerId: uuid, features: snapshot.features };
    const registry = server.infrastructure.engine.modules();
    modules = registry.values().filter((module) => server.router.available(routing, module));
    router = new ModelRouter({
      modules: registry,
      model: undefined,
      system: () => server.infrastructure.prompts.get(PromptNames.ROUTER),
    });
  });
  afterAll(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("sends at most 2 KB for a short request, and caps a 10,000-character message", () => {
    const short = router.request({ text: "where can I find diamonds", modules });
    expect(sentBytes(short)).toBeLessThanOrEqual(2_048);
    expect(JSON.stringify(short.user)).toContain("capabilities");
    expect((short.user.capabilities as unknown[]).length).toBeGreaterThan(1);
    const huge = router.request({ text: "钻".repeat(10_000), modules });
    const request = huge.user.request as string;
    expect([...request].length).toBe(ROUTER_TEXT_CHARS + 1);
    expect(sentBytes(huge) - sentBytes(short)).toBeLessThanOrEqual(ROUTER_TEXT_CHARS * 3 + 3);
    const serialized = `${huge.system}${JSON.stringify(huge.user)}`;
    expect(serialized.indexOf('"capabilities"')).toBeLessThan(serialized.indexOf('"request"'));
  });

  it("keeps the call within 2 KB with synthetic capabilities added up to 20", () => {
    const registry = server.infrastructure.engine.modules();
    const offered = router.catalog(modules).length;
    const synthetic = Array.from({ length: Math.max(0, 20 - offered) }, (_, index) => {
      const module = new FixtureModule<{ target: string; amount?: number | undefined }>({
        action: ActionType.of(
          `extension:feature_${index}`,
          codec(z.object({ target: z.string().min(1), amount: z.number().int().optional() })),
        ),
        description: `Extension feature number ${index}: looks up what the player asks about in a long list of things, with every detail an author may want to show, and more.`,
      });
      return module as unknown as AnyAgentModule;
    });
    const known = new Set(registry.values().map((module) => module.id.toString()));
    const withSynthetic = new ModelRouter({
      // the synthetic workflows are plain `defaults()` capabilities; the built-in ones keep their routing
      modules: {
        routing: (id: { toString(): string }) =>
          known.has(id.toString()) ? registry.routing(id as never) : ModuleRouting.defaults(),
      } as unknown as typeof registry,
      model: undefined,
      system: () => server.infrastructure.prompts.get(PromptNames.ROUTER),
    });
    const all = [...modules, ...synthetic];
    expect(withSynthetic.catalog(all)).toHaveLength(20);
    for (const [text, locale] of [
      ["where can I find diamonds", "en_us"],
      ["钻石在哪里找", "zh_cn"],
    ] as const) {
      const sent = withSynthetic.request({ text, modules: all, locale });
      expect(sentBytes(sent), text).toBeLessThanOrEqual(2_048);
      // every capability is still offered, each with the start of what it does
      const lines = sent.user.capabilities as string[];
      expect(lines).toHaveLength(21);
      expect(lines).toContain("item_query{query:str}: Look up a Minecraft item");
      expect(
        lines.find((line) => line.startsWith("extension:feature_0{target:str,amount?:int}: Extension")),
      ).toBeDefined();
    }
  });
});
