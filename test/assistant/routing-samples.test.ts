import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AssistantServer } from "../../src/assistant/assistant-server.js";
import { MemoryGameBridge } from "../../src/game/tools/memory-game-bridge.js";
import { silentLogger } from "../../src/util/logger.js";

let folder: string;
let server: AssistantServer;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "system-samples-"));
  server = await AssistantServer.create({
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
  it("give every read module at least 15 samples per language", () => {
    const routes = server.infrastructure.engine.modules();
    const read = routes
      .values()
      .map((module) => ({ id: module.id.toString(), profile: routes.routing(module.id).profile }))
      .filter((entry) => entry.profile?.kind === "read");
    expect(read.map((entry) => entry.id).sort()).toEqual([
      "system:help",
      "system:item_query",
      "system:player_query",
      "system:question",
    ]);
    for (const { id, profile } of read) {
      expect(profile?.zh.length, id).toBeGreaterThanOrEqual(15);
      expect(profile?.en.length, id).toBeGreaterThanOrEqual(15);
    }
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
