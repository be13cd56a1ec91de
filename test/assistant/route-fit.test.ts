import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentResult } from "../../src/agent/agent-result.js";
import { AgentEngine } from "../../src/agent/execution/agent-engine.js";
import { AbstractAgentModule } from "../../src/agent/module/abstract-agent-module.js";
import { ActionType } from "../../src/agent/module/action-type.js";
import { ModuleRouting } from "../../src/agent/module/module-routing.js";
import { RoutingProfile } from "../../src/agent/module/routing-profile.js";
import { DEFAULT_SEMANTIC_SETTINGS } from "../../src/agent/routing/semantic-config.js";
import { evaluate, parseLabelled, recommend } from "../../src/assistant/route-fit.js";
import { codec } from "../../src/util/codec.js";
import { runRoute } from "./route-cli-support.js";

const DEV_SET = join(import.meta.dirname, "..", "fixtures", "routing-dev.tsv");
/** The quest book the development set's quest lines name. */
const QUESTS = join(import.meta.dirname, "..", "fixtures", "ftbquests", "system-basics");

const run = runRoute;

describe("npx system route fit on the development set", () => {
  let report = "";
  beforeAll(async () => {
    const result = await run(["fit", DEV_SET, "--quests", QUESTS]);
    expect(result.code).toBe(0);
    report = result.out;
  }, 60_000);

  it("has at least 200 labelled lines in both languages", async () => {
    const lines = parseLabelled(await readFile(DEV_SET, "utf8"));
    expect(lines.length).toBeGreaterThanOrEqual(200);
    expect(lines.filter((line) => /[\u4e00-\u9fff]/.test(line.text)).length).toBeGreaterThanOrEqual(100);
    expect(lines.filter((line) => !/[\u4e00-\u9fff]/.test(line.text)).length).toBeGreaterThanOrEqual(100);
  });

  it("gives zero wrong direct routes and at least 90% recall with the shipped thresholds", () => {
    const current = report.slice(report.indexOf("current"), report.indexOf("grid"));
    expect(current).toContain(
      `minSimilarity ${DEFAULT_SEMANTIC_SETTINGS.minSimilarity}, minMargin ${DEFAULT_SEMANTIC_SETTINGS.minMargin}, minCoverage ${DEFAULT_SEMANTIC_SETTINGS.minCoverage}`,
    );
    const all = /\n {2}all +([\d.]+)% \((\d+)\/(\d+)\) +(\d+)\n/.exec(current);
    expect(all, current).not.toBeNull();
    expect(Number(all?.[4]), current).toBe(0);
    expect(Number(all?.[1]), current).toBeGreaterThanOrEqual(90);
    expect(current).not.toContain("wrong:");
  });

  it("prints precision, recall and wrong routes per module, the grid and a semantic.json recommendation", () => {
    for (const module of [
      "system:item_query",
      "system:player_query",
      "system:help",
      "system:question",
      "system:balance",
      "system:shop_catalog",
      "system:shop_orders",
      "system:quests",
      "system:quest",
      "system:mode_show",
    ])
      expect(report).toMatch(new RegExp(`${module} +[\\d.]+% +[\\d.]+% \\(\\d+/\\d+\\) +\\d+`));
    expect(report).toContain("grid (best margin and coverage for each similarity):");
    const json = report.trim().split("\n").at(-1) ?? "";
    const recommended = JSON.parse(json) as Record<string, number>;
    expect(Object.keys(recommended).sort()).toEqual(["minCoverage", "minMargin", "minSimilarity"]);
  });
});

describe("fitting", () => {
  const labelled = parseLabelled(
    ["text\tpath\tmodule", "a\tdirect\tm:a", "b\tdirect\tm:b", "c\tfallback\t-", "# comment"].join("\n"),
  );
  const routed = [
    { text: "a", command: undefined, direct: "m:a", top: "m:a", similarity: 0.9, margin: 0.5, coverage: 1 },
    { text: "b", command: undefined, direct: "m:b", top: "m:b", similarity: 0.5, margin: 0.1, coverage: 1 },
    { text: "c", command: undefined, direct: "m:a", top: "m:a", similarity: 0.45, margin: 0.3, coverage: 1 },
  ];

  it("counts a direct route of a fallback line as wrong and recommends thresholds without it", () => {
    const loose = evaluate(labelled, routed, { minSimilarity: 0.3, minMargin: 0, minCoverage: 0 });
    expect(loose.wrong).toBe(1);
    expect(loose.correct).toBe(2);
    const best = recommend(labelled, routed);
    expect(best.wrong).toBe(0);
    expect(best.thresholds.minSimilarity).toBeGreaterThan(0.45);
    expect(best.thresholds.minSimilarity).toBeLessThanOrEqual(0.5);
  });

  it("refuses malformed lines naming them", () => {
    expect(() => parseLabelled("text\tpath\tmodule\nhello\tmaybe\t-")).toThrow("line 2");
    expect(() => parseLabelled("hi\tdirect\t-")).toThrow("line 1: a direct line needs a module");
  });
});

describe("npx system route --stdin and --data-dir", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "system-route-data-"));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("prints one decision per input line in one process", async () => {
    const { code, out } = await run(
      ["--stdin", "--locale", "zh_cn"],
      "我的血量是多少\n\nhow do you make a bucket\n你好\n",
    );
    expect(code).toBe(0);
    const decisions = out
      .trim()
      .split("\n")
      .map(
        (line) => JSON.parse(line) as { text: string; path: string; moduleId: string | null; input: unknown },
      );
    expect(decisions.map((decision) => decision.text)).toEqual([
      "我的血量是多少",
      "how do you make a bucket",
      "你好",
    ]);
    expect(decisions[0]).toMatchObject({
      path: "semantic",
      moduleId: "system:player_query",
      input: { field: "health" },
    });
    expect(decisions[1]).toMatchObject({
      path: "semantic",
      moduleId: "system:item_query",
      input: { query: "minecraft:bucket" },
    });
    expect(decisions[2]?.path).toBe("local_fallback");
  });

  it("reads the thresholds of a data directory", async () => {
    await mkdir(join(dataDir, "config", "system"), { recursive: true });
    await writeFile(
      join(dataDir, "config", "system", "semantic.json"),
      JSON.stringify({ minSimilarity: 0.3, minMargin: 1, minCoverage: 0.6 }),
    );
    const strict = await run(["how do you make a bucket", "--data-dir", dataDir]);
    expect(JSON.parse(strict.out)).toMatchObject({
      path: "local_fallback",
      steps: expect.arrayContaining(["semantic:margin"]),
    });
  });

  it("refuses a text together with --stdin", async () => {
    const both = await run(["hello", "--stdin"]);
    expect(both.code).toBe(2);
    expect(both.err).toContain("not both");
  });
});

describe("near-identical samples", () => {
  const module = (id: string, samples: string[]) =>
    new (class extends AbstractAgentModule<Record<string, never>> {
      constructor() {
        super({
          action: ActionType.of(id, codec(z.object({}).strict() as z.ZodType<Record<string, never>>)),
          description: `Fixture ${id}.`,
          routing: ModuleRouting.defaults<Record<string, never>>().semantic(
            RoutingProfile.read(() => ({}), samples, []),
          ),
        });
      }
      async run(): Promise<AgentResult> {
        return AgentResult.success();
      }
    })();

  it("are reported with both ids", () => {
    const engine = new AgentEngine();
    engine.registerModule(module("system:inventory", ["查看我的背包", "我带了什么"]));
    engine.registerModule(module("example:bag", ["查看我的背包", "打开仓库"]));
    engine.registerModule(module("example:weather", ["今天天气怎么样"]));
    engine.start();
    const twins = engine.modules().routes.nearDuplicates();
    expect(twins).toHaveLength(1);
    expect([twins[0]?.target, twins[0]?.other].sort()).toEqual(["example:bag", "system:inventory"]);
  });
});
