import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RESOURCES } from "../../../../test/support/game-harness.js";
import { AgentException } from "../../../agent/agent-exception.js";
import type { AgentResult } from "../../../agent/agent-result.js";
import { CardRegistry } from "../../../agent/card/card-registry.js";
import { buildCard } from "../../../agent/card/card-type.js";
import { AgentEngine } from "../../../agent/execution/agent-engine.js";
import { ServiceContext } from "../../../agent/module/context-type.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import { translatable } from "../../../agent/text.js";
import { formatText } from "../../../agent/text-format.js";
import { FileAgentStore } from "../../../data/store/file-agent-store.js";
import { GameContextTypes } from "../../../game/context-types.js";
import { GAME_EVENT_TYPES, GAME_EVENTS } from "../../../game/game-events.js";
import { Identifier } from "../../../util/identifier.js";
import { Languages } from "../../../util/language.js";
import { MemoryLogger } from "../../../util/logger.js";
import { Registry } from "../../../util/registry.js";
import { FeatureSwitches } from "../../feature-switches.js";
import { ModuleManager } from "../../module-manager.js";
import type { AnyServerModuleType } from "../../server-module.js";
import { SystemModuleTags } from "../../system-module-tags.js";
import { CORE_SERVICES, type CoreServices } from "../core/core-services.js";
import { pointsLedgerStorage } from "../storage/points-ledger.js";
import { POINTS_SOURCES, PointsSources } from "../storage/points-sources.js";
import { POINTS_FEATURE } from "./points-feature.js";
import { POINTS_ADMIN_ACTION } from "./points-modules.js";

const STEVE = "0f8fad5b-d9cb-469f-a165-70867728950e";
const ADMIN = "5fd1d0c5-6c1b-4a5b-9a1b-3ad8d6f4f111";
const NAMES: Record<string, string> = { [STEVE]: "Steve", [ADMIN]: "Alex" };
/** 2026-12-02 12:00 in Shanghai. */
const NOON = Date.UTC(2026, 11, 2, 4, 0, 0);
const languages = Languages.load(RESOURCES);

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const assemble = async () => {
  const world = await mkdtemp(join(tmpdir(), "system-points-"));
  const store = new FileAgentStore({ world });
  cleanup = async () => {
    await store.close();
    await rm(world, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
  };
  const engine = new AgentEngine({});
  for (const eventType of GAME_EVENT_TYPES) engine.registerEventType(eventType);
  const cards = new CardRegistry();
  const core: Partial<CoreServices> = {
    resolvePlayer: (name) => {
      const uuid = Object.keys(NAMES).find(
        (id) => id === name || NAMES[id]?.toLowerCase() === name.toLowerCase(),
      );
      return uuid === undefined ? undefined : { uuid, name: NAMES[uuid] as string };
    },
  };
  const services = new ServiceContext(engine, engine.modules())
    .provide(GameContextTypes.AGENT_STORE, store)
    .provide(GameContextTypes.CARDS, cards)
    .provide(GameContextTypes.CLOCK, { now: () => NOON, timeZone: "Asia/Shanghai" })
    .provide(GAME_EVENTS, { emit: async () => {} })
    .provide(CORE_SERVICES, core as CoreServices)
    .provide(POINTS_SOURCES, new PointsSources());
  const types = new Registry<AnyServerModuleType>("server_module_type");
  types.register(POINTS_FEATURE.id, POINTS_FEATURE);
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
        id: Identifier.parse("system:points"),
        type: Identifier.parse("system:points"),
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
  let requests = 0;
  /** `/system <line>` by Steve (level 0) or the admin Alex (level 4), as the host runs it. */
  const command = async (line: string, level = 0, locale = "en_us"): Promise<AgentResult> => {
    const playerId = level > 0 ? ADMIN : STEVE;
    const features = new Set(["system:points"]);
    const outcome = await engine
      .modules()
      .commands()
      .parse(line, { playerId, permissionLevel: level, features });
    if (outcome.kind === "failure") throw new AgentException(outcome.failure);
    if (outcome.kind !== "action") throw new Error(`"${line}" is not a command: ${outcome.kind}`);
    requests++;
    return engine.execute(outcome.action, {
      requestId: `r${requests}`,
      playerId,
      locale,
      features,
      permissionLevel: level,
    });
  };
  const text = (result: AgentResult, locale = "en_us"): string => {
    if (result.presentation === undefined) throw new Error("no card");
    const decoded = cards.decode(result.presentation);
    if (!decoded.success) throw new Error(decoded.error);
    const view = buildCard(decoded.value).build();
    return formatText(languages, locale, translatable(view.template, ...view.arguments));
  };
  const ledger = (playerId = STEVE) =>
    store.read(playerId, (data) => ModuleData.get(data, pointsLedgerStorage).entries());
  return { engine, manager, store, command, text, ledger };
};

describe("system:points", () => {
  it("shows an empty balance, then the balance with the newest changes first (amount, reason, day)", async () => {
    const { command, text, store, manager } = await assemble();
    expect(manager.isInstalled("system:points")).toBe(true);
    expect(text(await command("balance"))).toBe("Your points: 0\nNo changes yet.");
    await store.transaction(STEVE, (data) => {
      const points = ModuleData.get(data, pointsLedgerStorage);
      points.credit("check_in:2026-12-01", 10, "check_in", NOON - 24 * 3_600_000);
      points.credit("q1", 25, "quest:Timber!", NOON);
      points.debit("s1", 5, "shop:bread", NOON);
    });
    expect(text(await command("余额"))).toBe(
      "Your points: 30\nLatest changes:\n-5 · shop purchase · 2026-12-02\n+25 · quest Timber! · 2026-12-02\n" +
        "+10 · daily check-in · 2026-12-01",
    );
    expect(text(await command("积分", 0, "zh_cn"), "zh_cn")).toContain("你的积分：30\n最近的变动：\n");
    expect(text(await command("积分", 0, "zh_cn"), "zh_cn")).toContain("+10 · 每日签到 · 2026-12-01");
  });

  it("lists only the last five entries", async () => {
    const { command, text, store } = await assemble();
    await store.transaction(STEVE, (data) => {
      for (let index = 1; index <= 7; index++)
        ModuleData.get(data, pointsLedgerStorage).credit(`e${index}`, index, "check_in", NOON);
    });
    const lines = text(await command("balance")).split("\n");
    expect(lines[0]).toBe("Your points: 28");
    expect(lines.slice(2)).toEqual([7, 6, 5, 4, 3].map((n) => `+${n} · daily check-in · 2026-12-02`));
  });

  it("lets an admin give and take points as ledger entries; a take never goes below zero", async () => {
    const { command, text, ledger } = await assemble();
    const given = await command("points give Steve 50", 4);
    expect(given.isSuccess()).toBe(true);
    expect(text(given)).toBe("Gave 50 points to Steve. Their balance: 50.");
    const refused = await command("points take steve 100", 4);
    expect(refused.failure?.code).toBe("INSUFFICIENT_BALANCE");
    expect(text(refused)).toBe(
      "Cannot take 100 points from Steve: their balance is only 50. Nothing was taken.",
    );
    expect(text(refused, "zh_cn")).toBe("无法扣除 Steve 的 100 积分：其余额只有 50，未扣除任何积分。");
    const taken = await command("points take Steve 20", 4, "zh_cn");
    expect(text(taken, "zh_cn")).toBe("已扣除 Steve 20 积分，其余额：30。");
    expect(await ledger()).toEqual([
      { id: "r1", amount: 50, reason: "admin:Alex", at: NOON },
      { id: "r3", amount: -20, reason: "admin:Alex", at: NOON },
    ]);
  });

  it("runs an admin change once per request id: the same request again changes nothing", async () => {
    const { engine, ledger } = await assemble();
    const request = {
      requestId: "same",
      playerId: ADMIN,
      locale: "en_us",
      features: new Set(["system:points"]),
    };
    const action = POINTS_ADMIN_ACTION.action({ operation: "give", player: "Steve", amount: 5 });
    await engine.execute(action, { ...request, permissionLevel: 4 });
    const again = await engine.execute(action, { ...request, permissionLevel: 4 });
    expect(again.isSuccess()).toBe(true);
    expect((await ledger()).map((entry) => entry.amount)).toEqual([5]);
  });

  it("refuses players without the operator level, unknown players and amounts out of range", async () => {
    const { engine, command, ledger } = await assemble();
    // the node `requires` the operator level: for a player the command does not exist
    await expect(command("points give Steve 50", 0)).rejects.toThrow();
    const direct = await engine.execute(
      POINTS_ADMIN_ACTION.action({ operation: "give", player: "Steve", amount: 50 }),
      {
        requestId: "x",
        playerId: STEVE,
        locale: "en_us",
        features: new Set(["system:points"]),
        permissionLevel: 0,
      },
    );
    expect(direct.failure?.code).toBe("PERMISSION_DENIED");
    expect((await command("points give Nobody 5", 4)).failure?.code).toBe("NOT_FOUND");
    await expect(command("points give Steve 0", 4)).rejects.toThrow();
    await expect(command("points give Steve 1000001", 4)).rejects.toThrow();
    expect(await ledger()).toEqual([]);
  });
});
