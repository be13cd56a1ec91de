import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { routingModules, SHOP } from "../../../test/support/routing-modules.js";
import { AssistantServer } from "../../assistant/assistant-server.js";
import { systemClock } from "../../game/context-types.js";
import { MemoryGameBridge } from "../../game/tools/memory-game-bridge.js";
import { silentLogger } from "../../util/logger.js";
import { offlineUuid } from "../../util/offline-uuid.js";
import { AgentEngine } from "../execution/agent-engine.js";
import { BudgetCounters, modelInputBytes } from "../execution/budget-counters.js";
import type { ModelPort, ModelRequest } from "../model/model-client.js";
import { PromptNames } from "../model/prompt-source.js";
import type { AnyAgentModule } from "../module/agent-module.js";
import {
  inputSignature,
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
      description: "Look up an item by id.",
      input: "{query: string, page: integer}",
      explicitOnly: false,
      example: "look up item minecraft:diamond",
    });
    expect(catalog.find((entry) => entry.capabilityId === "system:quest_detail")?.explicitOnly).toBe(true);
    // with no explicit-only capability offered, the flag is left out (all false)
    const plain = router.catalog(modules.filter((module) => module.id.toString() !== "system:quest_detail"));
    expect(plain.some((entry) => "explicitOnly" in entry)).toBe(false);
    expect(plain.find((entry) => entry.capabilityId === "system:player_query")).toEqual({
      capabilityId: "system:player_query",
      description: "Show the player's own information.",
      example: "show my player info",
    });
    expect(router.catalog(modules, "zh_cn")[0]?.example).toBe("查询物品 minecraft:diamond");
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

  it("sends at most 1 KB plus 220 bytes per offered workflow for a short request, and caps a 10,000-character message", () => {
    const short = router.request({ text: "where can I find diamonds", modules });
    // the prompt and the request take about 1 KB; each workflow the player may use adds one capability line
    const offered = (short.user.capabilities as unknown[]).length;
    expect(sentBytes(short)).toBeLessThanOrEqual(1_024 + 220 * offered);
    expect(JSON.stringify(short.user)).toContain("capabilities");
    expect((short.user.capabilities as unknown[]).length).toBeGreaterThan(1);
    const huge = router.request({ text: "钻".repeat(10_000), modules });
    const request = huge.user.request as string;
    expect([...request].length).toBe(ROUTER_TEXT_CHARS + 1);
    expect(sentBytes(huge) - sentBytes(short)).toBeLessThanOrEqual(ROUTER_TEXT_CHARS * 3 + 3);
    const serialized = `${huge.system}${JSON.stringify(huge.user)}`;
    expect(serialized.indexOf('"capabilities"')).toBeLessThan(serialized.indexOf('"request"'));
  });
});
