import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { MemoryLogger } from "../../util/logger.js";
import { AgentResult } from "../agent-result.js";
import { AbstractAgentModule } from "../module/abstract-agent-module.js";
import { ActionType } from "../module/action-type.js";
import { AgentConfig } from "./agent-config.js";
import { AgentEngine } from "./agent-engine.js";
import type { ExecutionContext } from "./execution-context.js";
import type { ExecutionPolicy } from "./execution-policy.js";
import { DEFAULT_POLICIES } from "./policy-defaults.js";

const REASONING_DEFAULT = DEFAULT_POLICIES["system:reasoning"] as ExecutionPolicy;
const OVERRIDE = { ...REASONING_DEFAULT, toolCalls: 2, reactIterations: 5 };

let folder: string;
let path: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "system-agent-config-"));
  path = join(folder, "config", "system", "system-agent.json");
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

class Reasoning extends AbstractAgentModule<{ text: string }> {
  static readonly ACTION = ActionType.of("system:reasoning", codec(z.object({ text: z.string() })));
  seen: ExecutionContext[] = [];
  constructor() {
    super({ action: Reasoning.ACTION, description: "Reason." });
  }
  async run(_input: { text: string }, context: ExecutionContext): Promise<AgentResult> {
    this.seen.push(context);
    return AgentResult.success();
  }
}

describe("AgentConfig", () => {
  it("creates system-agent.json with empty policies and uses module defaults", async () => {
    const config = new AgentConfig(path, new MemoryLogger());
    await config.reload();
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ policies: {} });
    expect(config.policyFor("system:reasoning", REASONING_DEFAULT)).toBe(REASONING_DEFAULT);
  });

  it("applies a full override from the file and refuses a partial one, keeping the module default", async () => {
    const logger = new MemoryLogger();
    await config(path, { policies: { "system:reasoning": OVERRIDE, "system:question": { modelCalls: 1 } } });
    const agent = new AgentConfig(path, logger);
    expect(await agent.reload()).toBe(true);
    expect(agent.policyFor("system:reasoning", REASONING_DEFAULT)).toEqual(OVERRIDE);
    const questionDefault = DEFAULT_POLICIES["system:question"] as ExecutionPolicy;
    expect(agent.policyFor("system:question", questionDefault)).toBe(questionDefault);
    expect(logger.has("policies.system:question: field toolCalls")).toBe(true);
  });

  it("logs a refused override once per config version, not on every request", async () => {
    const logger = new MemoryLogger();
    await config(path, { policies: { "system:reasoning": { modelCalls: 1 } } });
    const agent = new AgentConfig(path, logger);
    await agent.reload();
    for (let request = 0; request < 5; request++)
      expect(agent.policyFor("system:reasoning", REASONING_DEFAULT)).toBe(REASONING_DEFAULT);
    expect(logger.lines).toHaveLength(1);
    await agent.reload();
    agent.policyFor("system:reasoning", REASONING_DEFAULT);
    expect(logger.lines).toHaveLength(2);
  });

  it("set persists with an atomic write and keeps unknown settings", async () => {
    await config(path, { policies: {}, model: { endpoint: "http://127.0.0.1:1" } });
    const agent = new AgentConfig(path, new MemoryLogger());
    await agent.reload();
    await agent.set({ ...agent.get(), policies: { "system:reasoning": OVERRIDE } });
    const written = JSON.parse(await readFile(path, "utf8"));
    expect(written.policies["system:reasoning"]).toEqual(OVERRIDE);
    expect(written.model).toEqual({ endpoint: "http://127.0.0.1:1" });
  });

  it("a config change applies to new requests only; a running context keeps its snapshot", async () => {
    const agent = new AgentConfig(path, new MemoryLogger());
    await agent.reload();
    const engine = new AgentEngine({ config: agent });
    const module = new Reasoning();
    engine.registerModule(module);
    engine.start();
    const request = { requestId: "r1", playerId: "p", locale: "en_us", features: new Set<string>() };
    const before = engine.createContext(module, request);
    expect(before.policy).toBe(REASONING_DEFAULT);

    await agent.set({ policies: { "system:reasoning": OVERRIDE } });
    expect(before.policy).toBe(REASONING_DEFAULT);
    const after = engine.createContext(module, { ...request, requestId: "r2" });
    expect(after.policy).toEqual(OVERRIDE);

    await config(path, { policies: {} });
    await agent.reload();
    expect(after.policy.toolCalls).toBe(2);
    await engine.execute(Reasoning.ACTION.action({ text: "x" }), { ...request, requestId: "r3" });
    expect(module.seen[0]?.policy).toBe(REASONING_DEFAULT);
  });
});

const config = async (file: string, content: unknown): Promise<void> => {
  await mkdir(join(file, ".."), { recursive: true });
  await writeFile(file, JSON.stringify(content));
};
