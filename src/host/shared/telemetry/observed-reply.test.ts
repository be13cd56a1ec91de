import { describe, expect, it } from "vitest";
import { AgentResult } from "../../../agent/agent-result.js";
import type { AssistantReply, AssistantServer } from "../../../assistant/assistant-server.js";
import { observedReply } from "./observed-reply.js";

describe("observedReply", () => {
  it("delivers the reply before the request's telemetry is recorded, and returns it", async () => {
    const order: string[] = [];
    const assistant = {
      infrastructure: {
        telemetry: {
          request: async (_entry: string, _identity: unknown, work: () => Promise<AgentResult>) => {
            const result = await work();
            order.push("recorded");
            return result;
          },
        },
      },
    } as unknown as AssistantServer;
    const reply: AssistantReply = { result: AgentResult.success(), card: undefined };
    const returned = await observedReply(
      assistant,
      "chat",
      "player",
      async () => reply,
      () => order.push("delivered"),
    );
    expect(order).toEqual(["delivered", "recorded"]);
    expect(returned).toBe(reply);
  });
});
