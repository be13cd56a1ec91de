import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ScriptedModelServer } from "../../../test/support/scripted-model-server.js";
import { testGateway } from "../../../test/support/test-model.js";
import { AgentException } from "../../agent/agent-exception.js";
import { PromptNames } from "../../agent/model/prompt-source.js";
import { MemoryLogger, silentLogger } from "../../util/logger.js";
import { BUILTIN_PACK_ROOT, PromptStore } from "./prompt-store.js";

const writePrompt = async (root: string, namespace: string, name: string, text: string): Promise<void> => {
  const folder = join(root, "data", namespace, namespace, "prompts");
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, `${name}.txt`), text);
};

describe("PromptStore", () => {
  let folder: string;
  let packA: string;
  let packB: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), "system-prompts-"));
    packA = join(folder, "pack-a");
    packB = join(folder, "pack-b");
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("loads the built-in react, web_search and router prompts", async () => {
    const store = await PromptStore.load({ roots: [BUILTIN_PACK_ROOT], logger: silentLogger });
    expect(store.names()).toEqual(expect.arrayContaining(Object.values(PromptNames)));
    expect(store.get("react")).toBe(store.get(PromptNames.REACT));
    for (const name of [PromptNames.REACT, PromptNames.WEB_SEARCH])
      expect(store.get(name)).toContain('{"type":"answer"');
    expect(store.get(PromptNames.REACT)).toContain('{"type":"<tool id>","input":{...}}');
    expect(store.get(PromptNames.WEB_SEARCH)).toContain('{"type":"web.search","input":{"query":');
    const router = store.get(PromptNames.ROUTER);
    expect(router).toContain('{"capabilityId":"clarify"}');
    expect(router).toContain("a line starting with ! only if asked for exactly");
  });

  it("a server pack overrides a built-in prompt; later packs win", async () => {
    await writePrompt(packA, "system", "react", "pack A react");
    await writePrompt(packB, "system", "react", "pack B react");
    await writePrompt(packA, "myext", "helper", "extension prompt\r\nline two\r\n\n");
    const store = await PromptStore.load({ roots: [BUILTIN_PACK_ROOT, packA, packB], logger: silentLogger });
    expect(store.get("system:react")).toBe("pack B react");
    expect(store.get("myext:helper")).toBe("extension prompt\nline two");
    expect(store.get("web_search")).toContain("web.fetch");
  });

  it("reload applies to new requests only; the request's snapshot keeps the old text", async () => {
    await writePrompt(packA, "system", "react", "version one");
    const store = await PromptStore.load({ roots: [BUILTIN_PACK_ROOT, packA], logger: silentLogger });
    const generation = store.generation;
    const snapshot = store.get("react");
    await writePrompt(packA, "system", "react", "version two");
    await store.reload();
    expect(snapshot).toBe("version one");
    expect(store.get("react")).toBe("version two");
    expect(store.generation).toBe(generation + 1);
    await store.reload();
    expect(store.generation).toBe(generation + 1);
    await rm(join(packA, "data"), { recursive: true });
    await store.reload();
    expect(store.get("react")).toContain("You are System");
  });

  it("the model sees the snapshot a request took, even after a reload", async () => {
    const server = await ScriptedModelServer.start();
    try {
      await writePrompt(packA, "system", "react", "old prompt");
      const store = await PromptStore.load({ roots: [BUILTIN_PACK_ROOT, packA], logger: silentLogger });
      const gateway = testGateway(server);
      server.script({ text: "a" }, { text: "b" });
      const requestPrompt = store.get("react");
      await writePrompt(packA, "system", "react", "new prompt");
      await store.reload();
      const call = (system: string) =>
        gateway.call(
          {
            system,
            user: {},
            maxOutputTokens: 8,
            timeoutMillis: 5_000,
            signal: new AbortController().signal,
          },
          { playerId: "p", workflow: "w", deadline: Date.now() + 10_000 },
        );
      await call(requestPrompt);
      await call(store.get("react"));
      expect(server.requests.map((request) => request.system)).toEqual(["old prompt", "new prompt"]);
    } finally {
      await server.close();
    }
  });

  it("a reload with a new list of packs drops the old overrides", async () => {
    await writePrompt(packA, "system", "router", "pack router");
    const store = await PromptStore.load({ roots: [BUILTIN_PACK_ROOT, packA], logger: silentLogger });
    expect(store.get("router")).toBe("pack router");
    await store.reload([BUILTIN_PACK_ROOT]);
    expect(store.get("router")).toContain("capabilityId");
  });

  it("empty, oversized and badly named files are ignored with a log line", async () => {
    await writePrompt(packA, "system", "react", "   \n");
    await writePrompt(packA, "system", "web_search", "x".repeat(70 * 1024));
    await writePrompt(packA, "system", "Bad Name", "text");
    const logger = new MemoryLogger();
    const store = await PromptStore.load({ roots: [BUILTIN_PACK_ROOT, packA], logger });
    expect(store.get("react")).toContain("You are System");
    expect(store.get("web_search")).toContain("You are System");
    expect(logger.lines.filter((line) => line.startsWith("WARN"))).toHaveLength(3);
  });

  it("a missing prompt is a MODULE_FAILED AgentException", async () => {
    const store = await PromptStore.load({ roots: [packA], logger: silentLogger });
    expect(() => store.get("react")).toThrow(AgentException);
    try {
      store.get("react");
    } catch (error) {
      expect(AgentException.failure(error)).toMatchObject({
        code: "MODULE_FAILED",
        args: ["prompt system:react"],
      });
    }
  });
});
