import { beforeEach, describe, expect, it } from "vitest";
import type { Direction } from "../protocol/packet-codec.js";
import { PacketCodec } from "../protocol/packet-codec.js";
import { LivePlayerState } from "./live-player-state.js";
import { type PlayPacketEvents, PlayPackets } from "./play-packets.js";

const v1214 = PacketCodec.forVersion("1.21.4")!;
const v1201 = PacketCodec.forVersion("1.20.1")!;
const DIAMOND = 836;
const ENTITY = 42;

/** A 1.21.x item stack (no components). */
const item = (itemId: number, itemCount: number) => ({
  itemCount,
  itemId,
  addedComponentCount: 0,
  removedComponentCount: 0,
  components: [],
  removeComponents: [],
});
const EMPTY = { itemCount: 0 };

const spawnInfo = (name: string, gamemode: string) => ({
  dimension: 0,
  name,
  hashedSeed: 0n,
  gamemode,
  previousGamemode: 255,
  isDebug: false,
  isFlat: true,
  portalCooldown: 0,
  seaLevel: 63,
});

const loginParams = (world: string, gamemode = "survival") => ({
  entityId: ENTITY,
  isHardcore: false,
  worldNames: [world],
  maxPlayers: 20,
  viewDistance: 2,
  simulationDistance: 2,
  reducedDebugInfo: false,
  enableRespawnScreen: true,
  doLimitedCrafting: false,
  worldState: spawnInfo(world, gamemode),
  enforcesSecureChat: false,
});

const done = (criterion: string) => ({
  criterionIdentifier: criterion,
  criterionProgress: 1_700_000_000_000n,
});
const advancement = (key: string, shown: boolean, requirements: string[][]) => ({
  key,
  value: {
    parentId: undefined,
    displayData: shown
      ? {
          title: { type: "string", value: key },
          description: { type: "string", value: "" },
          icon: item(DIAMOND, 1),
          frameType: 0,
          flags: { unused: 0, hidden: 0, show_toast: 1, has_background_texture: 0 },
          xCord: 0,
          yCord: 0,
        }
      : undefined,
    requirements,
    sendsTelemtryData: false,
  },
});

/** A PlayPackets over a fresh state, recording its events, fed encoded frames as the relay would. */
const observe = (codec: PacketCodec) => {
  const state = new LivePlayerState();
  const events: string[] = [];
  const listener: PlayPacketEvents = {
    died: () => events.push("died"),
    dimensionChanged: (dimension) => events.push(`dimension ${dimension}`),
    opLevelChanged: (level) => events.push(`op ${level}`),
    advanced: (id) => events.push(`advanced ${id}`),
  };
  const packets = new PlayPackets(codec, state, listener);
  const feed = (direction: Direction, name: string, params: Record<string, unknown>): void => {
    expect(packets.observes(direction, name)).toBe(true);
    packets.observe(direction, name, codec.encode("play", direction, name, params));
  };
  return { state, events, packets, feed };
};

describe("PlayPackets (1.21.4)", () => {
  let observed: ReturnType<typeof observe>;
  beforeEach(() => {
    observed = observe(v1214);
    observed.feed("toClient", "login", loginParams("minecraft:overworld"));
  });

  it("reads world, game mode and entity id from login; a respawn elsewhere is a dimension change", () => {
    const { state, events, feed } = observed;
    expect(state.stats()).toMatchObject({ dimension: "minecraft:overworld", gameMode: "survival" });
    expect(state.entityId).toBe(ENTITY);
    feed("toClient", "respawn", {
      worldState: spawnInfo("minecraft:the_nether", "creative"),
      copyMetadata: 0,
    });
    feed("toClient", "respawn", {
      worldState: spawnInfo("minecraft:the_nether", "creative"),
      copyMetadata: 0,
    });
    expect(state.stats()).toMatchObject({ dimension: "minecraft:the_nether", gameMode: "creative" });
    expect(events).toEqual(["dimension minecraft:the_nether"]);
    feed("toClient", "game_state_change", { reason: "change_game_mode", gameMode: 2 });
    expect(state.stats().gameMode).toBe("adventure");
  });

  it("reads health, food and experience, and reports one death per life", () => {
    const { state, events, feed } = observed;
    feed("toClient", "update_health", { health: 20, food: 20, foodSaturation: 5 });
    feed("toClient", "update_health", { health: 13, food: 18, foodSaturation: 5 });
    feed("toClient", "experience", { experienceBar: 0.5, level: 3, totalExperience: 30 });
    expect(state.stats()).toMatchObject({ health: 13, food: 18, xpLevel: 3, xpTotal: 30 });
    feed("toClient", "update_health", { health: 0, food: 18, foodSaturation: 5 });
    feed("toClient", "death_combat_event", { playerId: ENTITY, message: { type: "string", value: "x" } });
    expect(events).toEqual(["died"]);
    feed("toClient", "update_health", { health: 20, food: 20, foodSaturation: 5 });
    feed("toClient", "death_combat_event", { playerId: ENTITY, message: { type: "string", value: "x" } });
    feed("toClient", "death_combat_event", { playerId: 7, message: { type: "string", value: "x" } });
    expect(events).toEqual(["died", "died"]);
  });

  it("follows teleports (absolute and relative per axis) and the client's own moves", () => {
    const { state, feed } = observed;
    const teleport = { teleportId: 1, dx: 0, dy: 0, dz: 0, yaw: 0, pitch: 0 };
    feed("toClient", "position", { ...teleport, x: 10, y: 70, z: -5, flags: {} });
    feed("toClient", "position", { ...teleport, x: 2, y: 64, z: 1, flags: { x: true, z: true } });
    expect(state.position).toEqual({ x: 12, y: 64, z: -4 });
    feed("toServer", "position", {
      x: 13.5,
      y: 64,
      z: -4,
      flags: { onGround: true, hasHorizontalCollision: false },
    });
    expect(state.position).toEqual({ x: 13.5, y: 64, z: -4 });
    // a move that is no place (NaN, as a confused client may send) leaves the last known position
    feed("toServer", "position", {
      x: Number.NaN,
      y: 64,
      z: Number.NaN,
      flags: { onGround: true, hasHorizontalCollision: false },
    });
    expect(state.position).toEqual({ x: 13.5, y: 64, z: -4 });
  });

  it("reads the inventory from the player's window, its slots, another window's player part and the client's clicks", () => {
    const { state, feed } = observed;
    expect(state.inventory()).toBeUndefined();
    const items = Array.from({ length: 46 }, (_, slot) => (slot === 36 ? item(DIAMOND, 5) : EMPTY));
    feed("toClient", "window_items", { windowId: 0, stateId: 1, items, carriedItem: EMPTY });
    expect(state.stats().inventory?.totals).toEqual([{ item: "minecraft:diamond", count: 5 }]);
    feed("toClient", "set_slot", { windowId: 0, stateId: 2, slot: 9, item: item(1, 64) });
    feed("toClient", "set_player_inventory", { slotId: 1, contents: item(DIAMOND, 2) });
    expect(state.inventory()?.stacks).toEqual([
      { slot: 9, item: "minecraft:stone", count: 64 },
      { slot: 36, item: "minecraft:diamond", count: 5 },
      { slot: 37, item: "minecraft:diamond", count: 2 },
    ]);
    // a chest (27 slots) then the player's 36: its slot 27 is the player's slot 9, its slot 54 the hotbar's first
    const chest = Array.from({ length: 63 }, (_, slot) => (slot === 54 ? item(DIAMOND, 1) : EMPTY));
    feed("toClient", "window_items", { windowId: 3, stateId: 1, items: chest, carriedItem: EMPTY });
    expect(state.stats().inventory?.totals).toEqual([{ item: "minecraft:diamond", count: 1 }]);
    feed("toServer", "window_click", {
      windowId: 3,
      stateId: 1,
      slot: 0,
      mouseButton: 0,
      mode: 0,
      changedSlots: [{ location: 27, item: item(1, 3) }],
      cursorItem: EMPTY,
    });
    expect(state.inventory()?.stacks).toContainEqual({ slot: 9, item: "minecraft:stone", count: 3 });
  });

  it("turns the op level the backend sends the player's own entity into the player's level", () => {
    const { state, events, feed } = observed;
    feed("toClient", "entity_status", { entityId: ENTITY, entityStatus: 24 });
    feed("toClient", "entity_status", { entityId: 99, entityStatus: 28 });
    feed("toClient", "entity_status", { entityId: ENTITY, entityStatus: 2 });
    expect(state.opLevel).toBe(0);
    feed("toClient", "entity_status", { entityId: ENTITY, entityStatus: 28 });
    feed("toClient", "entity_status", { entityId: ENTITY, entityStatus: 28 });
    expect(state.opLevel).toBe(4);
    expect(events).toEqual(["op 0", "op 4"]);
  });

  it("reports a shown advancement completed after the join's list, not what that list says was done before", () => {
    const { events, feed } = observed;
    feed("toClient", "advancements", {
      reset: true,
      advancementMapping: [
        advancement("minecraft:story/root", true, [["crafting_table"]]),
        advancement("minecraft:story/mine_stone", true, [["get_stone"]]),
        advancement("minecraft:recipes/misc/stick", false, [["has_planks"]]),
        advancement("minecraft:story/smelt_iron", true, [["iron"], ["furnace", "blast_furnace"]]),
      ],
      identifiers: [],
      progressMapping: [{ key: "minecraft:story/root", value: [done("crafting_table")] }],
    });
    const progress = (key: string, criteria: { criterionIdentifier: string }[]) => ({
      reset: false,
      advancementMapping: [],
      identifiers: [],
      progressMapping: [{ key, value: criteria }],
    });
    feed("toClient", "advancements", progress("minecraft:recipes/misc/stick", [done("has_planks")]));
    feed("toClient", "advancements", progress("minecraft:story/smelt_iron", [done("iron")]));
    expect(events).toEqual([]);
    feed("toClient", "advancements", progress("minecraft:story/smelt_iron", [done("iron"), done("furnace")]));
    feed("toClient", "advancements", progress("minecraft:story/mine_stone", [done("get_stone")]));
    feed("toClient", "advancements", progress("minecraft:story/mine_stone", [done("get_stone")]));
    expect(events).toEqual(["advanced minecraft:story/smelt_iron", "advanced minecraft:story/mine_stone"]);
  });

  it("makes a piece unknown, never stale and never an error, when its frame does not decode", () => {
    const { state, packets, feed } = observed;
    feed("toClient", "update_health", { health: 15, food: 20, foodSaturation: 5 });
    const items = Array.from({ length: 46 }, (_, slot) => (slot === 36 ? item(DIAMOND, 5) : EMPTY));
    feed("toClient", "window_items", { windowId: 0, stateId: 1, items, carriedItem: EMPTY });
    const windowItems = v1214.encode("play", "toClient", "window_items", {
      windowId: 0,
      stateId: 2,
      items,
      carriedItem: EMPTY,
    });
    // a slot whose component the codec does not know (a modded one): the frame is cut inside it
    const broken = windowItems.subarray(0, windowItems.length - 3);
    expect(() => packets.observe("toClient", "window_items", broken)).not.toThrow();
    expect(state.inventory()).toBeUndefined();
    expect(state.stats().inventory).toBeUndefined();
    const health = v1214.encode("play", "toClient", "update_health", {
      health: 3,
      food: 20,
      foodSaturation: 5,
    });
    packets.observe("toClient", "update_health", health.subarray(0, 3));
    expect(state.stats().health).toBeUndefined();
    // the next whole window brings the inventory back
    feed("toClient", "window_items", { windowId: 0, stateId: 3, items, carriedItem: EMPTY });
    expect(state.stats().inventory?.usedSlots).toBe(1);
  });

  it("observes only the packets it reads", () => {
    const { packets } = observed;
    expect(packets.observes("toClient", "map_chunk")).toBe(false);
    expect(packets.observes("toServer", "chat_command")).toBe(false);
  });
});

describe("PlayPackets (1.20.1 layouts)", () => {
  it("reads the flat login and respawn, the bit-mask teleport and the older item stacks", () => {
    const { state, events, feed } = observe(v1201);
    feed("toClient", "login", {
      entityId: ENTITY,
      isHardcore: false,
      gameMode: 1,
      previousGameMode: -1,
      worldNames: ["minecraft:overworld"],
      dimensionCodec: { type: "compound", name: "", value: {} },
      worldType: "minecraft:overworld",
      worldName: "minecraft:overworld",
      hashedSeed: 0n,
      maxPlayers: 20,
      viewDistance: 2,
      simulationDistance: 2,
      reducedDebugInfo: false,
      enableRespawnScreen: true,
      isDebug: false,
      isFlat: true,
      portalCooldown: 0,
    });
    expect(state.stats()).toMatchObject({ dimension: "minecraft:overworld", gameMode: "creative" });
    feed("toClient", "respawn", {
      dimension: "minecraft:the_end",
      worldName: "minecraft:the_end",
      hashedSeed: 0n,
      gamemode: 0,
      previousGamemode: 1,
      isDebug: false,
      isFlat: false,
      copyMetadata: false,
      portalCooldown: 0,
    });
    expect(events).toEqual(["dimension minecraft:the_end"]);
    feed("toClient", "position", { x: 1, y: 2, z: 3, yaw: 0, pitch: 0, flags: 0, teleportId: 1 });
    feed("toClient", "position", { x: 1, y: 0, z: 1, yaw: 0, pitch: 0, flags: 0x05, teleportId: 2 });
    expect(state.position).toEqual({ x: 2, y: 0, z: 4 });
    const items = Array.from({ length: 46 }, (_, slot) =>
      slot === 40 ? { present: true, itemId: v1201DiamondId(), itemCount: 7 } : { present: false },
    );
    feed("toClient", "window_items", { windowId: 0, stateId: 1, items, carriedItem: { present: false } });
    expect(state.inventory()?.stacks).toEqual([{ slot: 40, item: "minecraft:diamond", count: 7 }]);
    // window -2: a slot by its inventory index (2: the hotbar's third)
    feed("toClient", "set_slot", {
      windowId: -2,
      stateId: 0,
      slot: 2,
      item: { present: true, itemId: 1, itemCount: 1 },
    });
    expect(state.inventory()?.stacks).toContainEqual({ slot: 38, item: "minecraft:stone", count: 1 });
  });
});

/** Item ids move between versions: 1.20.1 numbers the diamond otherwise. */
const v1201DiamondId = (): number => {
  for (let id = 0; id < 2000; id++) if (v1201.itemName(id) === "minecraft:diamond") return id;
  throw new Error("no diamond in 1.20.1");
};
