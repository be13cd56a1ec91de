import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../../../test/support/game-harness.js";
import { AgentException } from "../../../agent/agent-exception.js";
import type { AgentResult } from "../../../agent/agent-result.js";
import { CardRegistry } from "../../../agent/card/card-registry.js";
import { buildCard } from "../../../agent/card/card-type.js";
import { AgentEngine } from "../../../agent/execution/agent-engine.js";
import { HybridRouter } from "../../../agent/routing/hybrid-router.js";
import { DEFAULT_SEMANTIC_SETTINGS } from "../../../agent/routing/semantic-config.js";
import { translatable } from "../../../agent/text.js";
import { formatText } from "../../../agent/text-format.js";
import { Languages } from "../../../util/language.js";
import { DAILY_CHECK_IN, type EarningWay, PointsSources } from "../storage/points-sources.js";
import { POINTS_BALANCE_CARD } from "./points-cards.js";
import {
  asksHowToEarn,
  MAX_EARNING_WAYS,
  POINTS_EARNING_CARD,
  PointsEarningModule,
} from "./points-earning.js";
import { PointsBalanceModule } from "./points-modules.js";

const STEVE = "0f8fad5b-d9cb-469f-a165-70867728950e";
const languages = Languages.load(RESOURCES);

const CHECK_IN: EarningWay = {
  event: DAILY_CHECK_IN,
  points: 10,
  conditions: {},
  repeat: "daily",
  feature: "system:check_in",
};
const RULES: EarningWay[] = [
  { event: "system:check_in_streak", points: 50, conditions: { streak: 7 }, repeat: "once" },
  { event: "system:playtime", points: 5, conditions: { minutes: 30 }, repeat: "daily" },
  { event: "system:playtime", points: 20, conditions: { total: 600 }, repeat: "once" },
  { event: "system:kill", points: 3, conditions: { entity: "minecraft:zombie" }, repeat: "always" },
  {
    event: "system:dimension_change",
    points: 8,
    conditions: { dimension: "minecraft:the_nether" },
    repeat: "once",
  },
  { event: "system:advancement", points: 2, conditions: {}, repeat: "always" },
  { event: "system:order_delivered", points: 1, conditions: { entry: "bread" }, repeat: "always" },
];

const assemble = (sources: PointsSources, entityName?: (id: string, locale: string) => string) => {
  const engine = new AgentEngine({});
  const cards = new CardRegistry();
  cards.register(POINTS_EARNING_CARD);
  cards.register(POINTS_BALANCE_CARD);
  engine.registerModule(new PointsEarningModule(sources, entityName));
  engine.registerModule(
    new PointsBalanceModule({
      points: { statement: async () => ({ balance: 0, entries: [] }) } as never,
      clock: { now: () => 0, timeZone: "UTC" },
    }),
  );
  engine.start();
  let requests = 0;
  const command = async (
    line: string,
    features: ReadonlySet<string>,
    locale = "en_us",
  ): Promise<AgentResult> => {
    const outcome = await engine
      .modules()
      .commands()
      .parse(line, { playerId: STEVE, permissionLevel: 0, features });
    if (outcome.kind === "failure") throw new AgentException(outcome.failure);
    if (outcome.kind !== "action") throw new Error(`"${line}" is not a command: ${outcome.kind}`);
    return engine.execute(outcome.action, {
      requestId: `r${++requests}`,
      playerId: STEVE,
      locale,
      features,
      permissionLevel: 0,
    });
  };
  const view = (result: AgentResult, locale = "en_us") => {
    if (result.presentation === undefined) throw new Error("no card");
    const decoded = cards.decode(result.presentation);
    if (!decoded.success) throw new Error(decoded.error);
    const built = buildCard(decoded.value).build();
    return {
      text: formatText(languages, locale, translatable(built.template, ...built.arguments)),
      buttons: built.buttons.map(
        (button) => `${button.labelKey} → ${button.action} ${button.args.join(" ")}`,
      ),
    };
  };
  return { command, view, engine };
};

describe("system:points_earning", () => {
  it("lists the check-in first, then every bonus rule with its condition and how often, in both languages", async () => {
    const sources = new PointsSources();
    sources.set("advancements", () => RULES);
    sources.set("system:check_in", () => [CHECK_IN]);
    const { command, view } = assemble(sources);
    const features = new Set(["system:check_in"]);
    const card = view(await command("earn", features));
    expect(card.text).toBe(
      [
        "Ways to earn points on this server:",
        "• Check in (/system checkin): +10 (once a day)",
        "• Check in 7 days in a row: +50 (once)",
        "• Play 30 minutes in one session: +5 (once a day)",
        "• Play 600 minutes in all: +20 (once)",
        "• Defeat zombie: +3 (each time)",
        "• Enter the Nether: +8 (once)",
        "• Earn an advancement: +2 (each time)",
        "• Receive a shop order of bread: +1 (each time)",
      ].join("\n"),
    );
    expect(card.buttons).toEqual([
      "system.points.earn.check_in_button → system:check_in {}",
      "system.points.earn.balance_button → system:balance {}",
    ]);
    const zh = view(await command("赚积分", features, "zh_cn"), "zh_cn");
    expect(zh.text.split("\n").slice(0, 3)).toEqual([
      "在本服务器赚积分的方法：",
      "• 签到（/system 签到）：+10 积分（每天一次）",
      "• 连续签到 7 天：+50 积分（仅一次）",
    ]);
  });

  it("names a kill rule's mob in the reader's language when it knows the name", async () => {
    const sources = new PointsSources();
    sources.set("advancements", () => RULES);
    const names: Record<string, string> = { en_us: "Zombie", zh_cn: "僵尸" };
    const { command, view } = assemble(sources, (id, locale) =>
      id === "minecraft:zombie" ? names[locale]! : id,
    );
    expect(view(await command("earn", new Set())).text).toContain("• Defeat Zombie: +3 (each time)");
    const zh = view(await command("赚积分", new Set(), "zh_cn"), "zh_cn").text;
    expect(zh).toContain("• 击败僵尸：+3 积分（每次）");
    // and a vanilla dimension by its name
    expect(zh).toContain("• 进入下界：+8 积分（仅一次）");
  });

  it("leaves out the check-in for a player without that feature, and says when nothing gives points", async () => {
    const sources = new PointsSources();
    sources.set("system:check_in", () => [CHECK_IN]);
    const { command, view } = assemble(sources);
    const card = view(await command("earn", new Set()));
    expect(card.text).toBe("This server gives no points for playing yet: only admins give them.");
    expect(card.buttons).toEqual([]);
  });

  it("reads its sources at each request, skips one that fails, and lists at most the cap", async () => {
    const sources = new PointsSources();
    let rules: EarningWay[] = [];
    sources.set("broken", () => {
      throw new Error("unreadable");
    });
    sources.set("advancements", () => rules);
    const { command, view } = assemble(sources);
    expect(view(await command("earn", new Set())).text).toContain("no points");
    rules = Array.from({ length: MAX_EARNING_WAYS + 5 }, (_, index) => ({
      event: "system:join",
      points: index + 1,
      conditions: {},
      repeat: "daily" as const,
    }));
    const lines = view(await command("earn", new Set())).text.split("\n");
    expect(lines).toHaveLength(MAX_EARNING_WAYS + 1);
    expect(lines[1]).toBe("• Join the server: +1 (once a day)");
  });

  it("offers the earning card from the balance card", async () => {
    const { command, view } = assemble(new PointsSources());
    expect(view(await command("balance", new Set())).buttons).toEqual([
      "system.points.balance.earn_button → system:points_earning {}",
    ]);
  });

  it("tells a question on earning points from a question on the balance", () => {
    for (const text of [
      "how do I get more points",
      "how are points earned",
      "how can I make money here",
      "积分怎么赚",
      "积分要怎么刷",
      "我能赚多少积分",
    ])
      expect(asksHowToEarn(text), text).toBe(true);
    for (const text of [
      "how many points do I have",
      "how many points did I earn",
      "how many points have I got",
      "我赚了多少积分",
      "我刷了多少积分",
      "how do I get diamonds",
      "怎么获得钻石",
    ])
      expect(asksHowToEarn(text), text).toBe(false);
  });

  it("routes earning questions to the earning card and balance questions to the balance, without a model", async () => {
    const { engine } = assemble(new PointsSources());
    const router = new HybridRouter({ modules: engine.modules(), settings: () => DEFAULT_SEMANTIC_SETTINGS });
    const route = async (text: string, locale = "en_us") =>
      (
        await router.route({
          requestId: "r1",
          text,
          player: {
            playerId: STEVE,
            permissionLevel: 0,
            features: new Set(),
            locale,
            aiEnabled: false,
            generation: 0,
          },
        })
      ).action?.type.id.toString();
    expect(await route("how do I get more points")).toBe("system:points_earning");
    expect(await route("积分怎么赚", "zh_cn")).toBe("system:points_earning");
    expect(await route("how many points do I have")).toBe("system:balance");
    expect(await route("how many points did I earn")).toBe("system:balance");
    expect(await route("我赚了多少积分", "zh_cn")).toBe("system:balance");
  });
});
