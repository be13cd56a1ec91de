import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentResult } from "../../agent/agent-result.js";
import { literal } from "../../agent/text.js";
import { FileAgentStore } from "./file-agent-store.js";
import { FileConversationStore } from "./file-conversation-store.js";

const PLAYER = "0f8fad5b-d9cb-469f-a165-70867728950e";
let world: string;
let store: FileAgentStore;
let conversations: FileConversationStore;
beforeEach(async () => {
  world = await mkdtemp(join(tmpdir(), "conversations-"));
  store = new FileAgentStore({ world });
  conversations = new FileConversationStore(store, 3);
});
afterEach(async () => {
  // the chat cache is written on a timer: let what is pending land, and retry a removal that raced a late write
  await store.close();
  await rm(world, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
});

describe("FileConversationStore", () => {
  it("keeps history in the chat cache across a restart, newest turns within the cap", async () => {
    await conversations.append(PLAYER, [
      { role: "user", requestId: "r1", at: 1, text: "查看背包" },
      { role: "assistant", requestId: "r1", at: 2, result: AgentResult.success(literal("ok")) },
    ]);
    await conversations.append(PLAYER, [
      { role: "user", requestId: "r2", at: 3, text: "again" },
      { role: "user", requestId: "r3", at: 4, text: "more" },
    ]);
    // the chat cache is written coalesced; a clean shutdown flushes it
    await store.flush();
    const fresh = new FileConversationStore(new FileAgentStore({ world }), 3);
    const history = await fresh.history(PLAYER);
    expect(history.map((turn) => turn.requestId)).toEqual(["r1", "r2", "r3"]);
    expect(history[0]?.role === "assistant" && history[0].result.isSuccess()).toBe(true);
  });

  it("hides history written under an older memory generation", async () => {
    await conversations.append(PLAYER, [{ role: "user", requestId: "r1", at: 1, text: "secret" }]);
    await store.transaction(PLAYER, (data) => data.bumpGeneration());
    expect(await conversations.history(PLAYER)).toEqual([]);
    await conversations.append(PLAYER, [{ role: "user", requestId: "r2", at: 2, text: "new" }]);
    expect((await conversations.history(PLAYER)).map((turn) => turn.requestId)).toEqual(["r2"]);
  });

  it("stores preferences durably in the player file; delete (revoke) forgets history and preferences only", async () => {
    expect(await conversations.preferences(PLAYER)).toBeUndefined();
    await conversations.setPreferences(PLAYER, { history: false, external: true, speech: true });
    expect(await new FileAgentStore({ world }).read(PLAYER, (data) => data.preferences)).toEqual({
      history: false,
      external: true,
      speech: true,
    });
    await store.transaction(PLAYER, (data) => data.bumpGeneration());
    await conversations.append(PLAYER, [{ role: "user", requestId: "r1", at: 1, text: "x" }]);
    await store.flush();
    await conversations.delete(PLAYER);
    await store.flush();
    expect(await conversations.history(PLAYER)).toEqual([]);
    expect(await conversations.preferences(PLAYER)).toBeUndefined();
    // the rest of the player file (other features' data) stays
    expect(await new FileAgentStore({ world }).read(PLAYER, (data) => data.generation)).toBe(1);
    expect((await new FileAgentStore({ world }).readChat(PLAYER)).history).toEqual([]);
  });
});
