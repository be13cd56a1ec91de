import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentConfig } from "../../src/agent/execution/agent-config.js";
import { silentLogger } from "../../src/util/logger.js";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import { testGateway } from "../support/test-model.js";
import { createHarness, REASONING_POLICY, reply, sentUser, WORKFLOW } from "./react-harness.js";

let server: ScriptedModelServer;
beforeEach(async () => {
  server = await ScriptedModelServer.start();
});
afterEach(async () => {
  await server.close();
});

const request = (id: string) => ({
  requestId: id,
  playerId: "player-1",
  locale: "en_us",
  features: new Set<string>(),
});
const finalOnly = (index: number): boolean => sentUser(server, index).finalOnly;

describe("ReActLoop and policy changes", () => {
  it("a policy change while a loop runs does not change that loop's rounds; the next request uses it", async () => {
    const config = new AgentConfig(undefined, silentLogger);
    let changed = false;
    const harness = createHarness({
      model: testGateway(server),
      config,
      onFind: () => {
        if (changed) return;
        changed = true;
        void config.set({
          policies: { [WORKFLOW.id.toString()]: { ...REASONING_POLICY, reactIterations: 1 } },
        });
      },
    });
    server.script(
      { text: reply.find("diamond") },
      { text: reply.source("minecraft:diamond") },
      { text: reply.answer("three rounds") },
    );
    const first = await harness.engine.execute(WORKFLOW.action({ question: "q" }), request("r1"));
    expect(first.isSuccess()).toBe(true);
    expect(changed).toBe(true);
    expect(harness.module.outcomes[0]).toMatchObject({ kind: "answer", rounds: 3 });
    expect(harness.calls).toHaveLength(2);
    expect([finalOnly(0), finalOnly(1), finalOnly(2)]).toEqual([false, false, true]);

    server.script({ text: reply.answer("one round") });
    await harness.engine.execute(WORKFLOW.action({ question: "q" }), request("r2"));
    expect(harness.module.outcomes[1]).toMatchObject({ kind: "answer", rounds: 1 });
    expect(finalOnly(3)).toBe(true);
    expect(sentUser(server, 3).tools).toEqual([]);
  });
});
