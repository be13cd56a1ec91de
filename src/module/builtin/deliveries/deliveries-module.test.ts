import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../../../test/support/game-harness.js";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import type { AgentResult } from "../../../agent/agent-result.js";
import { AgentEngine } from "../../../agent/execution/agent-engine.js";
import type {
  EventTaskSummary,
  UnconfirmedEvent,
  UnconfirmedEvents,
} from "../../../agent/execution/unconfirmed-events.js";
import { ServiceContext } from "../../../agent/module/context-type.js";
import { literal } from "../../../agent/text.js";
import { formatText } from "../../../agent/text-format.js";
import { GameContextTypes } from "../../../game/context-types.js";
import { ItemCatalog } from "../../../game/data/item-catalog.js";
import { Identifier } from "../../../util/identifier.js";
import { Languages } from "../../../util/language.js";
import { MemoryLogger } from "../../../util/logger.js";
import { Registry } from "../../../util/registry.js";
import { FeatureSwitches } from "../../feature-switches.js";
import { ModuleManager } from "../../module-manager.js";
import type { AnyServerModuleType } from "../../server-module.js";
import { SystemModuleTags } from "../../system-module-tags.js";
import { CORE_SERVICES, type CoreServices } from "../core/core-services.js";
import { DELIVERIES_FEATURE } from "./deliveries-feature.js";
import { DELIVERIES, HELD_EFFECTS, type HeldEffect, type HeldEffects } from "./deliveries-service.js";
import { deliveryRef } from "./delivery-lines.js";

const STEVE = "0f8fad5b-d9cb-469f-a165-70867728950e";
const ADMIN = "5fd1d0c5-6c1b-4a5b-9a1b-3ad8d6f4f111";
const TASK_ID = `system:check_in/${STEVE}/2026-12-02`;
const languages = Languages.load(RESOURCES);

/** The executor's side, in memory: what the admin command asked for. */
class FakeDeliveries implements UnconfirmedEvents {
  readonly calls: string[] = [];
  tasks: UnconfirmedEvent[] = [
    {
      id: TASK_ID,
      type: "system:check_in_delivery",
      playerId: STEVE,
      input: {
        day: "2026-12-02",
        items: [
          { item: "minecraft:bread", count: 3 },
          { item: "minecraft:experience_bottle", count: 2 },
        ],
      },
      createdAt: Date.UTC(2026, 11, 2, 3, 0),
      updatedAt: Date.UTC(2026, 11, 2, 4, 5),
    },
  ];
  unconfirmed(): UnconfirmedEvent[] {
    return structuredClone(this.tasks);
  }
  recent(): EventTaskSummary[] {
    return [];
  }
  async redeliver(id: string): Promise<string> {
    this.#resolve(id, "redeliver");
    return `${id}/redeliver`;
  }
  async markDone(id: string): Promise<void> {
    this.#resolve(id, "done");
  }
  #resolve(id: string, how: string): void {
    if (!this.tasks.some((task) => task.id === id)) throw new AgentException(AgentFailure.NOT_FOUND.with(id));
    this.tasks = this.tasks.filter((task) => task.id !== id);
    this.calls.push(`${how} ${id}`);
  }
}

const EFFECT_KEY = `check_in:${STEVE}:2026-12-01`;

/** A network's outbox side, in memory: its held effects and the admin's decisions on them. */
class FakeHeld implements HeldEffects {
  readonly calls: string[] = [];
  /** Settled meanwhile on another server: the next resolution finds it settled. */
  settledElsewhere = false;
  effects: HeldEffect[] = [
    {
      id: 7,
      key: EFFECT_KEY,
      playerId: STEVE,
      payload: { kind: "give_items", items: [{ item: "minecraft:cookie", count: 4 }] },
      server: "lobby",
      reason: "server_stopped",
      note: "server lobby stopped while applying: an admin must check",
      heldAt: Date.UTC(2026, 11, 1, 8, 30),
    },
  ];
  async list(): Promise<HeldEffect[]> {
    return structuredClone(this.effects);
  }
  async resolve(id: number, decision: "done" | "redeliver"): Promise<boolean> {
    const found = this.effects.some((effect) => effect.id === id) && !this.settledElsewhere;
    this.effects = this.effects.filter((effect) => effect.id !== id);
    if (found) this.calls.push(`${decision} ${id}`);
    return found;
  }
}

const assemble = (options: { readonly held?: FakeHeld } = {}) => {
  const deliveries = new FakeDeliveries();
  const engine = new AgentEngine({});
  const names: Partial<CoreServices> = {
    resolvePlayer: (nameOrUuid) => (nameOrUuid === STEVE ? { uuid: STEVE, name: "Steve" } : undefined),
  };
  const services = new ServiceContext(engine, engine.modules())
    .provide(DELIVERIES, deliveries)
    .provide(CORE_SERVICES, names as CoreServices)
    .provide(GameContextTypes.ITEM_CATALOG, ItemCatalog.forVersion("1.21.4"))
    .provide(GameContextTypes.CLOCK, { now: () => 0, timeZone: "Asia/Shanghai" });
  if (options.held !== undefined) services.provide(HELD_EFFECTS, options.held);
  const types = new Registry<AnyServerModuleType>("server_module_type");
  types.register(DELIVERIES_FEATURE.id, DELIVERIES_FEATURE as unknown as AnyServerModuleType);
  const logger = new MemoryLogger();
  const manager = new ModuleManager({
    types,
    engine,
    logger,
    switches: new FeatureSwitches(undefined, logger),
    tags: SystemModuleTags.empty(),
  });
  manager.install(
    [
      {
        id: Identifier.parse("system:deliveries"),
        type: Identifier.parse("system:deliveries"),
        enabled: true,
        enabledByDefault: undefined,
        server: {},
        client: {},
        source: "test",
      },
    ],
    services,
  );
  engine.start();
  /** `/system <line>` by a player with an operator level, as the host runs it. */
  const command = async (line: string, level: number, locale = "en_us"): Promise<AgentResult> => {
    const playerId = level > 0 ? ADMIN : STEVE;
    const outcome = await engine
      .modules()
      .commands()
      .parse(line, { playerId, permissionLevel: level, features: new Set() });
    if (outcome.kind === "failure") throw new AgentException(outcome.failure);
    if (outcome.kind !== "action") throw new Error(`"${line}" is not a command: ${outcome.kind}`);
    return engine.execute(outcome.action, {
      requestId: "r1",
      playerId,
      locale,
      features: new Set(),
      permissionLevel: level,
    });
  };
  const text = (result: AgentResult, locale = "en_us"): string =>
    formatText(languages, locale, result.message ?? literal(""));
  return { deliveries, engine, command, text, manager };
};

describe("/system deliveries", () => {
  it("lists unconfirmed deliveries with reference, player, items, time and task id (admin only)", async () => {
    const { command, text, manager } = assemble();
    expect(manager.isInstalled("system:deliveries")).toBe(true);
    const listed = await command("deliveries", 4);
    expect(listed.isSuccess()).toBe(true);
    expect(text(listed)).toBe(
      "Unconfirmed deliveries (1). Check the player's inventory, then /system deliveries redeliver <ref> or " +
        `done <ref>:\n[${deliveryRef(TASK_ID)}] Steve · Bread × 3, Bottle o' Enchanting × 2 · 2026-12-02 12:05 · ` +
        `task ${TASK_ID}`,
    );
    expect(text(await command("发放", 4, "zh_cn"), "zh_cn")).toContain("Steve · 面包 ×3、附魔之瓶 ×2");
    expect(text(await command("deliveries steve", 4))).toContain(`task ${TASK_ID}`);
    expect(text(await command("deliveries Alex", 4))).toBe("No unconfirmed deliveries.");
    // The node `requires` the operator level: for a player the command does not exist.
    await expect(command("deliveries", 0)).rejects.toThrow(/not a command|UNKNOWN_COMMAND/);
  });

  it("redelivers by short reference, once; the second time the delivery is no longer there", async () => {
    const { command, text, deliveries } = assemble();
    const ref = deliveryRef(TASK_ID);
    const redelivered = await command(`deliveries redeliver ${ref}`, 4);
    expect(text(redelivered)).toBe(
      `Delivery [${ref}] of Steve is being given again as task ${TASK_ID}/redeliver.`,
    );
    expect(deliveries.calls).toEqual([`redeliver ${TASK_ID}`]);
    const again = await command(`deliveries redeliver ${ref}`, 4);
    expect(again.failure?.code).toBe("NOT_FOUND");
    expect(text(await command("deliveries", 4))).toBe("No unconfirmed deliveries.");
  });

  it("marks a delivery done by task id without giving, and refuses a player without the operator level", async () => {
    const { command, text, deliveries, engine } = assemble();
    const refused = await engine.execute(
      { type: (await findAction(engine)).type, input: { op: "done", ref: TASK_ID } },
      { requestId: "r2", playerId: STEVE, locale: "en_us", features: new Set(), permissionLevel: 0 },
    );
    expect(refused.failure?.code).toBe("PERMISSION_DENIED");
    expect(deliveries.calls).toEqual([]);
    const done = await command(`deliveries done ${TASK_ID}`, 4);
    expect(text(done)).toBe(`Delivery [${deliveryRef(TASK_ID)}] of Steve marked done; nothing was given.`);
    expect(deliveries.calls).toEqual([`done ${TASK_ID}`]);
    expect((await command("deliveries done nothing", 4)).failure?.code).toBe("NOT_FOUND");
  });
});

/** The deliveries action as a button or invoke request would carry it (no command node, so no `requires`). */
const findAction = async (engine: AgentEngine) => {
  const module = engine.modules().get("system:deliveries");
  if (module === undefined) throw new Error("not installed");
  return module.action.action({ op: "list" });
};

describe("/system deliveries on a network", () => {
  it("lists the outbox's held effects after the local ones: player, items, time, server and why", async () => {
    const { command, text } = assemble({ held: new FakeHeld() });
    const listed = text(await command("deliveries", 4));
    expect(listed).toMatch(/^Unconfirmed deliveries \(2\)\./);
    expect(listed.split("\n")[2]).toBe(
      `[${deliveryRef(EFFECT_KEY)}] Steve · Cookie × 4 · 2026-12-01 16:30 · server lobby: it stopped while giving`,
    );
    expect(text(await command("deliveries", 4, "zh_cn"), "zh_cn")).toContain(
      `[${deliveryRef(EFFECT_KEY)}] Steve · 曲奇 ×4 · 2026-12-01 16:30 · 服务器 lobby：该服务器在发放途中停止`,
    );
    expect(text(await command("deliveries Steve", 4))).toMatch(/^Unconfirmed deliveries \(2\)/);
    expect(text(await command("deliveries Alex", 4))).toBe("No unconfirmed deliveries.");
  });

  it("settles a held effect once: given again by the player's server, or done by its key", async () => {
    const held = new FakeHeld();
    const { command, text, deliveries } = assemble({ held });
    const ref = deliveryRef(EFFECT_KEY);
    expect(text(await command(`deliveries redeliver ${ref}`, 4))).toBe(
      `Delivery [${ref}] of Steve will be given again, once, by the server they play on.`,
    );
    expect(held.calls).toEqual(["redeliver 7"]);
    expect((await command(`deliveries redeliver ${ref}`, 4)).failure?.code).toBe("NOT_FOUND");
    expect(deliveries.calls).toEqual([]);

    const again = new FakeHeld();
    const second = assemble({ held: again });
    expect(second.text(await second.command(`deliveries done ${EFFECT_KEY}`, 4))).toBe(
      `Delivery [${ref}] of Steve marked done; nothing was given.`,
    );
    expect(again.calls).toEqual(["done 7"]);
  });

  it("refuses a player, and reports NOT_FOUND when another admin settled it first", async () => {
    const held = new FakeHeld();
    const { command, engine } = assemble({ held });
    const refused = await engine.execute(
      { type: (await findAction(engine)).type, input: { op: "done", ref: deliveryRef(EFFECT_KEY) } },
      { requestId: "r3", playerId: STEVE, locale: "en_us", features: new Set(), permissionLevel: 0 },
    );
    expect(refused.failure?.code).toBe("PERMISSION_DENIED");
    held.settledElsewhere = true;
    expect((await command(`deliveries done ${deliveryRef(EFFECT_KEY)}`, 4)).failure?.code).toBe("NOT_FOUND");
    expect(held.calls).toEqual([]);
  });
});
