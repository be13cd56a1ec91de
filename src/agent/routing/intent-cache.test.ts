import { describe, expect, it } from "vitest";
import { IntentCache } from "./intent-cache.js";
import type { RoutingPlayer } from "./routing-player.js";

const player = (playerId: string, change: Partial<RoutingPlayer> = {}): RoutingPlayer => ({
  playerId,
  permissionLevel: 0,
  features: new Set(["system:shop"]),
  locale: "zh_cn",
  aiEnabled: true,
  generation: 0,
  ...change,
});
const route = { moduleId: "system:item_query", input: { query: "minecraft:diamond", page: 0 } };

describe("IntentCache", () => {
  it("keeps players apart", () => {
    const cache = new IntentCache(() => 8);
    cache.put(player("alice"), "查询物品 minecraft:diamond", route);
    expect(cache.get(player("alice"), "查询物品  minecraft:diamond")).toEqual(route);
    expect(cache.get(player("bob"), "查询物品 minecraft:diamond")).toBeUndefined();
    expect(cache.size("bob")).toBe(0);
  });

  it("keeps texts that differ in an id or a number apart (the cached input holds them), not in case or punctuation", () => {
    const cache = new IntentCache(() => 8);
    cache.put(player("alice"), "where do I get minecraft:andesite", {
      moduleId: "system:item_query",
      input: { query: "minecraft:andesite" },
    });
    cache.put(player("alice"), "shop page 2", { moduleId: "system:shop_catalog", input: { page: 2 } });
    expect(cache.get(player("alice"), "where do I get create:andesite_alloy")).toBeUndefined();
    expect(cache.get(player("alice"), "shop page 3")).toBeUndefined();
    expect(cache.get(player("alice"), "Where do I get  MINECRAFT:ANDESITE?")?.input).toEqual({
      query: "minecraft:andesite",
    });
    expect(cache.get(player("alice"), "shop page 2!")?.input).toEqual({ page: 2 });
  });

  it("drops a player's entries on permission or feature changes and on a memory-generation bump", () => {
    const cache = new IntentCache(() => 8);
    cache.put(player("alice"), "我的状态", route);
    expect(cache.get(player("alice", { permissionLevel: 2 }), "我的状态")).toBeUndefined();
    cache.put(player("alice"), "我的状态", route);
    expect(cache.get(player("alice", { features: new Set() }), "我的状态")).toBeUndefined();
    cache.put(player("alice"), "我的状态", route);
    expect(cache.get(player("alice", { generation: 1 }), "我的状态")).toBeUndefined();
    expect(cache.get(player("alice"), "我的状态")).toBeUndefined();
    cache.put(player("alice"), "我的状态", route);
    cache.invalidate("alice");
    expect(cache.get(player("alice"), "我的状态")).toBeUndefined();
  });

  it("is bounded per player, dropping the least recently used entry", () => {
    const cache = new IntentCache(() => 2);
    cache.put(player("alice"), "a", route);
    cache.put(player("alice"), "b", route);
    cache.get(player("alice"), "a");
    cache.put(player("alice"), "c", route);
    expect(cache.get(player("alice"), "b")).toBeUndefined();
    expect(cache.get(player("alice"), "a")).toEqual(route);
    expect(cache.size("alice")).toBe(2);
  });

  it("returns copies: a caller cannot change a cached input", () => {
    const cache = new IntentCache(() => 2);
    const input = { query: "minecraft:diamond", page: 0 };
    cache.put(player("alice"), "a", { moduleId: "system:item_query", input });
    input.page = 9;
    expect(cache.get(player("alice"), "a")?.input).toEqual({ query: "minecraft:diamond", page: 0 });
  });
});
