import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentException } from "../../agent/agent-exception.js";
import { JournalStepRunner } from "../../agent/storage/journal-step-runner.js";
import { hadNoEffect } from "../../agent/storage/no-effect.js";
import type { AnyTool } from "../../agent/tool/tool.js";
import { FileAgentJournal } from "../../data/store/file-agent-journal.js";
import { Identifier } from "../../util/identifier.js";
import type { GiveOutcome, GiveStack } from "../game-bridge.js";
import { giveItemsTool } from "./give-items-tool.js";
import { MemoryGameBridge } from "./memory-game-bridge.js";

const OWNER = Identifier.parse("system:check_in");
const scope = (playerId: string) => ({
  playerId,
  locale: "en_us",
  stepId: "give/0",
  signal: new AbortController().signal,
  event: true,
});
const failureOf = async (work: Promise<unknown>): Promise<string | undefined> => {
  try {
    await work;
    return undefined;
  } catch (error) {
    return error instanceof AgentException ? error.failure().code : String(error);
  }
};
const errorOf = async (work: Promise<unknown>): Promise<unknown> => {
  try {
    await work;
  } catch (error) {
    return error;
  }
  return undefined;
};

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe("game.give_items", () => {
  it("is a durable write tool that is NOT idempotent, allowed in events, owned by its feature", () => {
    const tool = giveItemsTool({ bridge: new MemoryGameBridge(), owner: OWNER });
    expect(tool.readOnly).toBe(false);
    expect(tool.idempotent).toBe(false);
    expect(tool.allowedInEvents).toBe(true);
    expect(tool.owner?.toString()).toBe("system:check_in");
  });

  it("gives to an online player; refuses an offline one (PLAYER_OFFLINE) and an unknown item (GIVE_FAILED) without effect", async () => {
    const bridge = new MemoryGameBridge((id) => id !== "minecraft:unknown_thing");
    const tool = giveItemsTool({ bridge, owner: OWNER });
    bridge.join("steve", "Steve");
    const given = await tool.handler({ items: [{ item: "minecraft:bread", count: 3 }] }, scope("steve"));
    expect(given).toEqual({ given: [{ item: "minecraft:bread", count: 3 }] });
    const unknown = await errorOf(
      tool.handler({ items: [{ item: "minecraft:unknown_thing", count: 1 }] }, scope("steve")),
    );
    expect(AgentException.failure(unknown).code).toBe("GIVE_FAILED");
    expect(hadNoEffect(unknown)).toBe(true);
    bridge.leave("steve");
    const offline = await errorOf(
      tool.handler({ items: [{ item: "minecraft:bread", count: 1 }] }, scope("steve")),
    );
    expect(AgentException.failure(offline).code).toBe("PLAYER_OFFLINE");
    expect(hadNoEffect(offline)).toBe(true);
    expect(bridge.gives).toHaveLength(1);
  });

  it("gives nothing at all when one of the stacks does not fit or is unknown (no partial give)", async () => {
    const bridge = new MemoryGameBridge((id) => id !== "minecraft:unknown_thing");
    const tool = giveItemsTool({ bridge, owner: OWNER });
    const player = bridge.join("steve", "Steve");
    for (let slot = 0; slot < 35; slot++)
      player.stacks.push({ slot: 9 + slot, item: "minecraft:dirt", count: 64 });
    const twoStacks = {
      items: [
        { item: "minecraft:bread", count: 3 },
        { item: "minecraft:diamond", count: 1 },
      ],
    };
    expect(await failureOf(tool.handler(twoStacks, scope("steve")))).toBe("GIVE_FAILED");
    player.stacks.splice(0, 1);
    const mixed = {
      items: [
        { item: "minecraft:bread", count: 3 },
        { item: "minecraft:unknown_thing", count: 1 },
      ],
    };
    expect(await failureOf(tool.handler(mixed, scope("steve")))).toBe("GIVE_FAILED");
    expect(bridge.gives).toEqual([]);
    expect(bridge.count("steve", "minecraft:bread")).toBe(0);
  });

  it("reports EFFECT_UNKNOWN (not a no-effect refusal) when the game cannot say whether the items stayed", async () => {
    class UnsavedBridge extends MemoryGameBridge {
      override async giveItems(playerId: string, stacks: readonly GiveStack[]): Promise<GiveOutcome> {
        await super.giveItems(playerId, stacks);
        throw new Error("player file not saved");
      }
    }
    const bridge = new UnsavedBridge();
    bridge.join("steve", "Steve");
    const error = await errorOf(
      giveItemsTool({ bridge, owner: OWNER }).handler(
        { items: [{ item: "minecraft:bread", count: 1 }] },
        scope("steve"),
      ),
    );
    expect(AgentException.failure(error).code).toBe("EFFECT_UNKNOWN");
    expect(hadNoEffect(error)).toBe(false);
  });

  it("as a journal step: a refusal lets the same step give later; a RUNNING receipt after a crash never gives", async () => {
    const folder = await mkdtemp(join(tmpdir(), "give-items-"));
    folders.push(folder);
    const bridge = new MemoryGameBridge();
    const tool = giveItemsTool({ bridge, owner: OWNER }) as unknown as AnyTool;
    const journal = await FileAgentJournal.open({ folder });
    const runner = new JournalStepRunner(journal);
    const input = { items: [{ item: "minecraft:bread", count: 3 }] };
    const give = () => runner.run("event:e1/give/0", tool, input, () => tool.handler(input, scope("steve")));
    expect(await failureOf(give())).toBe("PLAYER_OFFLINE");
    bridge.join("steve", "Steve");
    expect(await give()).toEqual({ given: [{ item: "minecraft:bread", count: 3 }] });
    expect(await give()).toEqual({ given: [{ item: "minecraft:bread", count: 3 }] });
    expect(bridge.count("steve", "minecraft:bread")).toBe(3);

    // The process died while a give was in flight: the receipt stayed RUNNING.
    await journal.beginStep("event:e2/give/0", tool.id.toString());
    await journal.close();
    const reopened = await FileAgentJournal.open({ folder });
    const after = new JournalStepRunner(reopened);
    const retry = () => after.run("event:e2/give/0", tool, input, () => tool.handler(input, scope("steve")));
    expect(await failureOf(retry())).toBe("EFFECT_UNKNOWN");
    expect(await failureOf(retry())).toBe("EFFECT_UNKNOWN");
    expect(bridge.count("steve", "minecraft:bread")).toBe(3);
    await reopened.close();
  });
});
