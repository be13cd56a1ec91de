import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { explainDecision } from "../../src/agent/routing/route-explanation.js";
import { CORE_ADMIN_ACTIONS } from "../../src/module/builtin/core/core-module.js";
import { MODE_ACTION } from "../../src/module/builtin/core/mode-module.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import { ADMIN, ALEX, replyText, STEVE, startAssistant, type TestAssistant } from "./assistant-support.js";

const CLARIFY = JSON.stringify({ capabilityId: "clarify" });
const UNMATCHED = "please tell me a story about the moon";

describe("AssistantServer over the in-memory game", () => {
  let model: ScriptedModelServer;
  const opened: TestAssistant[] = [];
  const open = async (options: Parameters<typeof startAssistant>[0] = {}): Promise<TestAssistant> => {
    const assistant = await startAssistant({ modelBaseUrl: model.baseUrl, ...options });
    opened.push(assistant);
    return assistant;
  };

  // a fresh model server per test: an unused scripted reply must never leak into the next test
  beforeEach(async () => {
    model = await ScriptedModelServer.start();
  });
  afterEach(async () => {
    for (const assistant of opened.splice(0)) await assistant.server.close();
    await model.close();
  });

  it("sends unmatched plain text to the model router and lists usage per day with /system usage", async () => {
    const { server } = await open();
    // the router finds no workflow (clarify); extension chat then answers with one plain reply
    model.script(
      { text: CLARIFY, usage: { promptTokens: 120, completionTokens: 7 } },
      { text: "A story? I only know Minecraft.", usage: { promptTokens: 30, completionTokens: 5 } },
    );
    const before = model.requests.length;
    const reply = await server.handle(STEVE, UNMATCHED);
    expect(model.requests.length).toBe(before + 2);
    expect(reply.result.isFailure()).toBe(false);
    const all = await server.handle(ADMIN, "usage");
    expect(all.result.isSuccess()).toBe(true);
    expect(replyText(all)).toMatch(/Steve · 2 calls · 150\/12 tokens/);
    const one = await server.handle(ADMIN, "usage Steve");
    expect(replyText(one)).toMatch(/Steve · 2 calls/);
    const none = await server.handle(ADMIN, "usage Alex");
    expect(replyText(none)).toMatch(/No model usage/);
  });

  it("counts one model call as one call, not one calls", async () => {
    const { server } = await open();
    model.script({
      text: JSON.stringify({ capabilityId: "system:item_query", input: { query: "minecraft:diamond" } }),
      usage: { promptTokens: 40, completionTokens: 6 },
    });
    await server.handle(STEVE, UNMATCHED);
    expect(replyText(await server.handle(ADMIN, "usage"))).toMatch(/Steve · 1 call · 40\/6 tokens/);
  });

  it("writes a request's log line once its answer is on its way, never before it", async () => {
    const logger = new MemoryLogger();
    const { server } = await open({ logger });
    const requestLines = (): string[] => logger.lines.filter((line) => line.startsWith("INFO request "));
    const reply = await server.handle(STEVE, "/item minecraft:diamond");
    expect(replyText(reply)).toContain("Diamond");
    // the player has the card; the line is written in a later turn of the event loop
    expect(requestLines()).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(requestLines()).toEqual([
      expect.stringMatching(/ Steve "\/item minecraft:…" command → system:item_query: succeeded$/),
    ]);
  });

  it("a rejoin that arrives while the leave is still saving waits for it: the new session stays online and loaded", async () => {
    const { server } = await open();
    const leaving = server.leave(STEVE.uuid);
    const joining = server.join(STEVE);
    await Promise.all([leaving, joining]);
    expect(server.infrastructure.players.online(STEVE.uuid)?.name).toBe("Steve");
    // loaded (pinned): a tick transaction runs only for a player in memory
    expect(server.infrastructure.store.tickTransaction(STEVE.uuid, () => 1).ran).toBe(true);
    const reply = await server.handle(STEVE, "settings history on");
    expect(reply.result.isSuccess()).toBe(true);
  });

  it("a player's intent cache is dropped when they leave", async () => {
    const { server } = await open();
    await server.join(STEVE);
    const player = {
      playerId: STEVE.uuid,
      permissionLevel: 0,
      features: new Set<string>(),
      locale: "en_us",
      aiEnabled: true,
      generation: 0,
    };
    server.router.cache.put(player, "what do I have", { moduleId: "system:player_query", input: {} });
    expect(server.router.cache.size(STEVE.uuid)).toBe(1);
    await server.leave(STEVE.uuid);
    expect(server.router.cache.size(STEVE.uuid)).toBe(0);
  });

  it("a player's cached permission snapshot is dropped when they leave, and computed again when asked", async () => {
    const { server } = await open();
    await server.join(STEVE);
    const before = server.permissions.snapshot(STEVE.uuid);
    expect(server.permissions.snapshot(STEVE.uuid)).toBe(before);
    await server.leave(STEVE.uuid);
    const after = server.permissions.snapshot(STEVE.uuid);
    expect(after).not.toBe(before);
    // the same permissions (the version is the service's, which other changes move)
    expect({ ...after, version: 0 }).toEqual({ ...before, version: 0 });
  });

  it("/system reset deletes the player's files and caches but keeps model-usage.json", async () => {
    const { server, folder } = await open();
    model.script({ text: CLARIFY, usage: { promptTokens: 10, completionTokens: 2 } }, { text: "Hello!" });
    await server.handle(STEVE, UNMATCHED);
    expect((await server.handle(STEVE, "settings history on")).result.isSuccess()).toBe(true);
    await server.infrastructure.store.flush();
    await server.infrastructure.storage.flush();
    const system = join(folder, "world", "system");
    const owned = (): string[] =>
      ["players", "chat"].flatMap((kind) =>
        existsSync(join(system, kind))
          ? readdirSync(join(system, kind)).filter((name) => name.includes(STEVE.uuid))
          : [],
      );
    expect(owned().length).toBeGreaterThan(0);
    const reset = await server.handle(ADMIN, "reset Steve");
    expect(reset.result.isSuccess()).toBe(true);
    await server.infrastructure.store.flush();
    expect(owned()).toEqual([]);
    const usageFile = readFileSync(join(system, "model-usage.json"), "utf8");
    expect(usageFile).toContain(STEVE.uuid);
    expect(replyText(await server.handle(ADMIN, "usage Steve"))).toMatch(/Steve · 2 calls/);
  });

  it("/system reload re-reads the router prompt from a server data pack", async () => {
    const { server, folder } = await open();
    const system = async (): Promise<string> => {
      model.script({ text: CLARIFY });
      const before = model.requests.length;
      await server.handle(STEVE, `${UNMATCHED} ${before}`);
      return model.requests[before]?.system ?? "";
    };
    expect(await system()).not.toContain("RELOADED ROUTER PROMPT");
    const prompts = join(folder, "datapacks", "data", "system", "system", "prompts");
    mkdirSync(prompts, { recursive: true });
    writeFileSync(join(prompts, "router.txt"), "RELOADED ROUTER PROMPT: answer with JSON.");
    expect(await system()).not.toContain("RELOADED ROUTER PROMPT");
    expect((await server.handle(ADMIN, "reload")).result.isSuccess()).toBe(true);
    expect(await system()).toContain("RELOADED ROUTER PROMPT");
  });

  it("/system reload re-reads access.json and model.json", async () => {
    const { server, configDir } = await open();
    expect(server.permissions.snapshot(STEVE.uuid).ai).toBe(true);
    writeFileSync(join(configDir, "access.json"), JSON.stringify({ aiByDefault: false }));
    writeFileSync(join(configDir, "model.json"), JSON.stringify({ baseUrl: "", model: "", apiKey: "" }));
    expect(server.permissions.snapshot(STEVE.uuid).ai).toBe(true);
    const reload = await server.handle(ADMIN, "reload");
    expect(reload.result.isSuccess()).toBe(true);
    expect(server.permissions.snapshot(STEVE.uuid).ai).toBe(false);
    expect(server.infrastructure.modelConfig.configured()).toBe(false);
    const before = model.requests.length;
    const reply = await server.handle(STEVE, UNMATCHED);
    expect(model.requests.length).toBe(before);
    expect(reply.card?.view.template).toBeDefined();
  });

  it("mode simple never asks the model; a per-player mode leaves other players on routing", async () => {
    const { server } = await open();
    expect((await server.handle(ADMIN, "mode default simple")).result.isSuccess()).toBe(true);
    const before = model.requests.length;
    const reply = await server.handle(STEVE, UNMATCHED);
    expect(reply.result.isFailure()).toBe(false);
    expect(model.requests.length).toBe(before);
    expect((await server.handle(ADMIN, "mode default routing")).result.isSuccess()).toBe(true);
    expect((await server.handle(ADMIN, "mode simple Steve")).result.isSuccess()).toBe(true);
    await server.handle(STEVE, UNMATCHED);
    expect(model.requests.length).toBe(before);
    model.script({ text: CLARIFY }, { text: "Hello!" });
    await server.handle(ALEX, UNMATCHED);
    expect(model.requests.length).toBe(before + 2);
    expect(server.permissions.snapshot(STEVE.uuid).mode).toBe("simple");
    expect(server.permissions.snapshot(ALEX.uuid).mode).toBe("routing");
  });

  it("mode ask with system:question off falls back to routing (documented in docs/admin.md)", async () => {
    const { server } = await open({
      entries: { "system:question": { type: "system:question", enabled: false } },
    });
    expect(server.modules.enabled("system:question")).toBe(false);
    expect((await server.handle(ADMIN, "mode ask Steve")).result.isSuccess()).toBe(true);
    model.script({ text: CLARIFY });
    const before = model.requests.length;
    await server.handle(STEVE, UNMATCHED);
    expect(model.requests.length).toBe(before + 1);
    expect(model.requests.at(-1)?.body.messages).toBeDefined();
    // commands stay structured in every mode
    const item = await server.handle(STEVE, "item minecraft:diamond");
    expect(item.result.isSuccess()).toBe(true);
    expect(model.requests.length).toBe(before + 1);
  });

  it("mode ask sends plain text to system:question when installed; commands stay structured", async () => {
    const { server } = await open({
      entries: {
        // the shipped question feature needs a knowledge base; a data pack disables it and a stub takes its action
        "system:question": { type: "system:question", enabled: false },
        "test:question_stub": { type: "test:question_stub" },
      },
    });
    expect((await server.handle(ADMIN, "mode ask Steve")).result.isSuccess()).toBe(true);
    const before = model.requests.length;
    const asked = await server.handle(STEVE, "why is the sky blue");
    expect(replyText(asked)).toContain("question stub: why is the sky blue");
    const item = await server.handle(STEVE, "item minecraft:diamond");
    expect(replyText(item)).not.toContain("question stub");
    expect(model.requests.length).toBe(before);
    // a player denied the question feature falls back to routing instead of MODULE_DISABLED
    await server.handle(ADMIN, "revoke Steve test:question_stub");
    model.script({ text: CLARIFY });
    const routed = await server.handle(STEVE, "why is the sky blue");
    expect(replyText(routed)).not.toContain("question stub");
    expect(routed.result.failure?.code).not.toBe("MODULE_DISABLED");
    expect(model.requests.length).toBe(before + 1);
  });

  it("settings history/external on|off and clear are player commands", async () => {
    const { server } = await open();
    for (const line of ["settings history off", "settings external on", "settings external off", "clear"])
      expect((await server.handle(STEVE, line)).result.isSuccess(), line).toBe(true);
    const preferences = await server.infrastructure.conversation.preferences(STEVE.uuid);
    expect(preferences.history).toBe(false);
    expect(preferences.external).toBe(false);
    await server.handle(STEVE, "settings history on");
    expect((await server.infrastructure.conversation.preferences(STEVE.uuid)).history).toBe(true);
    const bad = await server.handle(STEVE, "/settings history maybe");
    expect(bad.result.isSuccess()).toBe(false);
    // without arguments, the three settings as they apply now
    const shown = await server.handle(STEVE, "settings");
    expect(replyText(shown)).toContain(
      '"title":"Your settings: conversation history on · external services off · speech off. Change one with',
    );
  });

  it("cancel ends a running model request as CANCELLED and the model server sees the connection close", async () => {
    const { server } = await open();
    model.script({ text: CLARIFY, delayMillis: 20_000 });
    const before = model.requests.length;
    const running = server.handle(STEVE, UNMATCHED);
    await model.waitForRequests(before + 1);
    const cancel = await server.handle(STEVE, "cancel");
    expect(cancel.result.isSuccess()).toBe(true);
    const result = (await running).result;
    expect(result.failure?.code).toBe("CANCELLED");
    await expect.poll(() => model.requests[before]?.closedEarly, { timeout: 10_000 }).toBe(true);
    const nothing = await server.handle(STEVE, "cancel");
    expect(nothing.result.isSuccess()).toBe(false);
  });

  it("refuses admin commands to a non-op, as a command and invoked structurally", async () => {
    const { server } = await open();
    // the host sends `/system <known alias> …` as an explicit command (leading slash)
    for (const line of [
      "/grant Alex",
      "/revoke Alex",
      "/reset Alex",
      "/usage",
      "/reload",
      "/restore",
      "/restore Alex",
      "/mode default simple",
      "/mode simple Alex",
      "/mode allow simple",
    ]) {
      const reply = await server.handle(STEVE, line);
      expect(reply.result.isSuccess(), line).toBe(false);
    }
    expect(server.permissions.snapshot(ALEX.uuid).mode).toBe("routing");
    const snapshot = server.permissions.snapshot(STEVE.uuid);
    for (const [type, input] of [
      [CORE_ADMIN_ACTIONS.ACCESS, { grant: true, player: "Steve" }],
      [CORE_ADMIN_ACTIONS.RESET, { player: "Alex" }],
      [MODE_ACTION, { op: "default", mode: "simple" }],
      [MODE_ACTION, { op: "player", mode: "simple", player: "Alex" }],
      [MODE_ACTION, { op: "allow", modes: "simple" }],
      [CORE_ADMIN_ACTIONS.RELOAD, {}],
    ] as const) {
      const result = await server.infrastructure.engine.execute(
        { type: type as never, input },
        {
          requestId: `structured-${type.id}`,
          playerId: STEVE.uuid,
          locale: "en_us",
          features: snapshot.features,
          permissionLevel: snapshot.opLevel,
        },
      );
      expect(result.failure?.code, type.id.toString()).toBe("PERMISSION_DENIED");
    }
    expect(server.permissions.snapshot(STEVE.uuid).mode).toBe("routing");
    const tree = JSON.stringify(server.commands.tree(STEVE));
    expect(tree).not.toContain('"grant"');
    expect(JSON.stringify(server.commands.tree(ADMIN))).toContain('"grant"');
  });

  it("grant/revoke of a feature disabled by default changes help, completions, command tree and model catalog", async () => {
    const { server } = await open();
    const sees = async (): Promise<Record<string, boolean>> => {
      model.script({ text: CLARIFY });
      const before = model.requests.length;
      await server.handle(STEVE, UNMATCHED);
      const catalog = JSON.stringify(model.requests[before]?.user ?? null);
      return {
        help: replyText(await server.handle(STEVE, "help")).includes("secret"),
        completions: (await server.commands.completions(STEVE, "sec")).includes("secret"),
        tree: JSON.stringify(server.commands.tree(STEVE)).includes('"secret"'),
        catalog: catalog.includes("test:secret_action"),
        runs: replyText(await server.handle(STEVE, "/secret")).includes("secret ran"),
      };
    };
    const hidden = { help: false, completions: false, tree: false, catalog: false, runs: false };
    expect(await sees()).toEqual(hidden);
    expect(replyText(await server.handle(ADMIN, "grant Steve test:secret"))).toMatch(
      /Feature test:secret granted/,
    );
    expect(await sees()).toEqual({ help: true, completions: true, tree: true, catalog: true, runs: true });
    expect(replyText(await server.handle(ADMIN, "revoke Steve test:secret"))).toMatch(
      /Feature test:secret revoked/,
    );
    expect(await sees()).toEqual(hidden);
    // the shipped tool feature disabled by default, when this build installs it
    if (server.modules.isInstalled("system:search")) {
      expect(server.permissions.snapshot(STEVE.uuid).features.has("system:search")).toBe(false);
      expect(replyText(await server.handle(ADMIN, "grant Steve system:search"))).toMatch(/granted/);
      expect(server.permissions.snapshot(STEVE.uuid).features.has("system:search")).toBe(true);
      expect(replyText(await server.handle(ADMIN, "revoke Steve system:search"))).toMatch(/revoked/);
      expect(server.permissions.snapshot(STEVE.uuid).features.has("system:search")).toBe(false);
    }
    const unknown = await server.handle(ADMIN, "grant Steve test:nothing");
    expect(unknown.result.failure?.code).toBe("NOT_FOUND");
  });

  it("a feature whose type is unknown or whose install throws appears nowhere", async () => {
    const { server } = await open({
      entries: { "test:ghost": { type: "test:no_such_type" }, "test:broken": { type: "test:broken" } },
    });
    expect(server.modules.isInstalled("test:ghost")).toBe(false);
    expect(server.modules.isInstalled("test:broken")).toBe(false);
    expect(replyText(await server.handle(ADMIN, "help"))).not.toContain("broken");
    expect(await server.commands.completions(ADMIN, "bro")).not.toContain("broken");
    expect(JSON.stringify(server.commands.tree(ADMIN))).not.toContain('"broken"');
    expect((await server.handle(ADMIN, "/broken")).result.failure?.code).toBe("UNKNOWN_COMMAND");
    model.script({ text: CLARIFY });
    const before = model.requests.length;
    await server.handle(ADMIN, UNMATCHED);
    expect(JSON.stringify(model.requests[before]?.user ?? null)).not.toContain("test:broken");
    const decision = await server.router.route({
      requestId: "semantic",
      text: "broken test capability",
      player: { ...routingPlayer(server, ADMIN.uuid), aiEnabled: false },
    });
    const explained = explainDecision(decision);
    expect(JSON.stringify(explained)).not.toContain("test:broken");
  });

  it("help, completions, semantic candidates, the model catalog and the executors share one filter", async () => {
    const { server } = await open();
    expect(replyText(await server.handle(ADMIN, "grant Steve test:secret"))).toMatch(/granted/);
    const steve = routingPlayer(server, STEVE.uuid);
    const alex = routingPlayer(server, ALEX.uuid);
    const secret = server.infrastructure.engine
      .modules()
      .values()
      .find((m) => m.id.toString() === "test:secret_action");
    expect(secret).toBeDefined();
    if (secret === undefined) return;
    expect(server.router.available(steve, secret)).toBe(true);
    expect(server.router.available(alex, secret)).toBe(false);
    const executed = await server.infrastructure.engine.execute(
      { type: secret.action as never, input: {} },
      {
        requestId: "structured-secret",
        playerId: ALEX.uuid,
        locale: "zh_cn",
        features: server.permissions.snapshot(ALEX.uuid).features,
        permissionLevel: 0,
      },
    );
    expect(executed.failure?.code).toBe("MODULE_DISABLED");
  });
});

const routingPlayer = (server: TestAssistant["server"], playerId: string) => {
  const snapshot = server.permissions.snapshot(playerId);
  return {
    playerId,
    permissionLevel: snapshot.opLevel,
    features: snapshot.features,
    locale: "en_us",
    aiEnabled: snapshot.ai,
    generation: 0,
  };
};
