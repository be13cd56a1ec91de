import { describe, expect, it } from "vitest";
import { AgentLifecycles } from "../agent-lifecycle.js";
import { AgentResult } from "../agent-result.js";
import type { ConversationPreferences, ConversationTurn } from "../storage/conversation-memory.js";
import { literal } from "../text.js";
import { ConversationService } from "./conversation-service.js";
import { InMemoryConversationStore } from "./in-memory-conversation-store.js";
import { MemoryGenerations } from "./memory-generations.js";

const exchange = (text: string): ConversationTurn[] => [
  { role: "user", requestId: text, at: 1, text },
  { role: "assistant", requestId: text, at: 2, result: AgentResult.success(literal(`re: ${text}`)) },
];

const make = (): {
  service: ConversationService;
  store: InMemoryConversationStore;
  generations: MemoryGenerations;
} => {
  const store = new InMemoryConversationStore();
  const generations = new MemoryGenerations();
  return { service: new ConversationService({ store, generations }), store, generations };
};

describe("MemoryGenerations", () => {
  it("bumps per player and tells old work it is no longer current", () => {
    const generations = new MemoryGenerations();
    const dropped: string[] = [];
    generations.onBump((playerId) => dropped.push(playerId));
    generations.onBump(() => {
      throw new Error("broken cache");
    });
    const started = generations.generation("alex");
    expect(generations.isCurrent("alex", started)).toBe(true);
    expect(generations.bump("alex")).toBe(started + 1);
    expect(generations.isCurrent("alex", started)).toBe(false);
    expect(generations.isCurrent("steve", 0)).toBe(true);
    expect(dropped).toEqual(["alex"]);
  });
});

describe("ConversationService", () => {
  it("records under the current generation and projects history for prompts", async () => {
    const { service, generations } = make();
    expect(await service.record("alex", generations.generation("alex"), exchange("hi"))).toBe(true);
    expect(await service.projection("alex")).toEqual([
      { role: "user", text: "hi" },
      { role: "assistant", text: "re: hi" },
    ]);
  });

  it("clear forgets history and refuses writes of work started before it", async () => {
    const { service, generations, store } = make();
    const started = generations.generation("alex");
    await service.record("alex", started, exchange("one"));
    await service.clear("alex");
    expect(await store.history("alex")).toEqual([]);
    expect(await service.record("alex", started, exchange("stale"))).toBe(false);
    expect(await store.history("alex")).toEqual([]);
  });

  it("refuses a write whose generation changed while the preferences were read", async () => {
    const store = new InMemoryConversationStore();
    const generations = new MemoryGenerations();
    const slow = Object.assign(Object.create(store) as InMemoryConversationStore, {
      preferences: async (playerId: string): Promise<ConversationPreferences | undefined> => {
        generations.bump(playerId);
        return store.preferences(playerId);
      },
    });
    const service = new ConversationService({ store: slow, generations });
    expect(await service.record("alex", 0, exchange("racy"))).toBe(false);
    expect(await store.history("alex")).toEqual([]);
  });

  it("keeps history and external preferences per player, defaulting to on (speech defaults to off)", async () => {
    const { service } = make();
    expect(await service.preferences("alex")).toEqual({ history: true, external: true });
    expect(await service.setPreferences("alex", { external: false })).toEqual({
      history: true,
      external: false,
      speech: false,
    });
    expect(await service.setPreferences("alex", { history: false, speech: true })).toEqual({
      history: false,
      external: false,
      speech: true,
    });
    expect(await service.preferences("steve")).toEqual({ history: true, external: true });
  });

  it("gives prompts no history while the history preference is off", async () => {
    const { service, generations } = make();
    await service.record("alex", generations.generation("alex"), exchange("hi"));
    await service.setPreferences("alex", { history: false });
    expect(await service.projection("alex")).toEqual([]);
    expect(await service.record("alex", generations.generation("alex"), exchange("more"))).toBe(false);
  });

  it("revoke through the lifecycle deletes history and preferences and bumps the generation", async () => {
    const { service, generations, store } = make();
    await service.record("alex", 0, exchange("hi"));
    await service.setPreferences("alex", { external: false });
    const lifecycles = new AgentLifecycles();
    lifecycles.register(service);
    await lifecycles.revoke("alex");
    expect(generations.generation("alex")).toBe(1);
    expect(await store.history("alex")).toEqual([]);
    expect(await store.preferences("alex")).toBeUndefined();
  });

  it("logs and reports false when the store fails, never throwing", async () => {
    const store = new InMemoryConversationStore();
    const broken = Object.assign(Object.create(store) as InMemoryConversationStore, {
      append: async (): Promise<void> => {
        throw new Error("disk full");
      },
    });
    const service = new ConversationService({ store: broken, generations: new MemoryGenerations() });
    expect(await service.record("alex", 0, exchange("hi"))).toBe(false);
  });

  it("returns copies: changing a read history does not change the store", async () => {
    const { service, store } = make();
    await service.record("alex", 0, exchange("hi"));
    const read = (await service.history("alex")) as ConversationTurn[];
    read.length = 0;
    expect(await store.history("alex")).toHaveLength(2);
  });
});
