import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RouteSession } from "../../src/assistant/route-cli.js";
import { type LabelledLine, parseLabelled } from "../../src/assistant/route-fit.js";

const HELD_OUT = join(import.meta.dirname, "..", "fixtures", "routing-held-out.tsv");
const QUESTS = join(import.meta.dirname, "..", "fixtures", "ftbquests", "system-basics");
const CHINESE = /[\u4e00-\u9fff]/;

/**
 * Paraphrases that are neither samples nor development lines, routed by the assembly's own router exactly as
 * `npx system route` routes them (built-in modules and data pack, the shipped thresholds, no model), each by a
 * player of the line's language.
 */
describe("held-out paraphrases of every read-only workflow", () => {
  let lines: LabelledLine[];
  const sessions: Record<string, RouteSession> = {};
  const routed = new Map<string, string | undefined>();

  beforeAll(async () => {
    lines = parseLabelled(await readFile(HELD_OUT, "utf8"));
    for (const locale of ["en_us", "zh_cn"])
      sessions[locale] = await RouteSession.open({
        words: [],
        stdin: false,
        player: "Player",
        locale,
        opLevel: 0,
        packs: [],
        dataDir: undefined,
        quests: QUESTS,
      });
    for (const line of lines) {
      const session = sessions[CHINESE.test(line.text) ? "zh_cn" : "en_us"]!;
      const decision = await session.explain(line.text);
      const direct = decision.path === "semantic" || decision.path === "command";
      routed.set(line.text, direct ? String(decision.moduleId) : undefined);
    }
  }, 120_000);

  afterAll(async () => {
    for (const session of Object.values(sessions)) await session.close();
  });

  it("routes at least 90% of them directly to the right workflow and none to a wrong one", () => {
    const expected = lines.filter((line) => line.path === "direct");
    const right = expected.filter((line) => routed.get(line.text) === line.module);
    // a write (check-in, a purchase, a payment, a change) routed anywhere, or a read routed elsewhere
    const wrong = lines
      .filter((line) => {
        const module = routed.get(line.text);
        return module !== undefined && !(line.path === "direct" && module === line.module);
      })
      .map((line) => `${line.text} → ${routed.get(line.text)}`);
    expect(wrong).toEqual([]);
    const missed = expected.filter((line) => routed.get(line.text) !== line.module).map((line) => line.text);
    expect(right.length / expected.length, missed.join(" | ")).toBeGreaterThanOrEqual(0.9);
  });

  it("cover every read-only workflow of the assembly in both languages, with no line a sample says", () => {
    const modules = sessions.en_us!.server.infrastructure.engine.modules();
    const read = modules
      .values()
      .filter((module) => modules.routing(module.id).profile?.kind === "read")
      .map((module) => module.id.toString());
    for (const id of read) {
      const own = lines.filter((line) => line.path === "direct" && line.module === id);
      expect(own.filter((line) => CHINESE.test(line.text)).length, id).toBeGreaterThanOrEqual(8);
      expect(own.filter((line) => !CHINESE.test(line.text)).length, id).toBeGreaterThanOrEqual(8);
    }
    // writes are there to be refused: check-in and buying
    for (const id of ["system:check_in", "system:shop_quote"])
      expect(lines.filter((line) => line.path === "fallback" && line.module === id).length).toBeGreaterThan(
        3,
      );
    // as written (case, punctuation and numbers aside): the analyser's synonyms may well make two of them alike
    const surface = (text: string): string =>
      text
        .normalize("NFKC")
        .toLowerCase()
        .replace(/\d+/g, "#")
        .replace(/[^\p{L}#]+/gu, " ")
        .trim();
    const said = new Set(
      modules.routes
        .entries()
        .flatMap((entry) => entry.samples)
        .map(surface),
    );
    const copies = lines.filter((line) => line.path === "direct" && said.has(surface(line.text)));
    expect(copies.map((line) => line.text)).toEqual([]);
  });
});
