import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { Identifier } from "../../util/identifier.js";
import { AgentResult } from "../agent-result.js";
import { AbstractAgentModule } from "./abstract-agent-module.js";
import { ActionType } from "./action-type.js";
import { ownedModule } from "./owned-module.js";

class Delivery extends AbstractAgentModule<{ order: string }> {
  readonly confirmed: string[] = [];
  constructor() {
    super({
      action: ActionType.of("test:delivery", codec(z.object({ order: z.string() }))),
      description: "delivers",
      interactive: false,
      event: true,
      eventTypes: ["test:paid"],
      eventInput: true,
    });
  }
  override async run(): Promise<AgentResult> {
    return AgentResult.success();
  }
  async effectConfirmed(input: { order: string }, playerId: string): Promise<void> {
    this.confirmed.push(`${input.order}/${playerId}`);
  }
}

describe("ownedModule", () => {
  it("keeps what the workflow declares beyond its run: the admin's confirmation hook and event input", async () => {
    const module = new Delivery();
    const owned = ownedModule(module, Identifier.parse("test:shop"));
    expect(owned.owner?.toString()).toBe("test:shop");
    expect(owned.eventInput).toBe(true);
    await owned.effectConfirmed?.({ order: "o1" }, "alex");
    expect(module.confirmed).toEqual(["o1/alex"]);
  });
});
