import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeFrames } from "../../src/data/store/record-frame.js";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import {
  joinPlayer,
  modelEnvironment,
  type Player,
  type ShippedServer,
  settled,
  speak,
  startShipped,
  waitFor,
} from "./system-support.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The example extension package, listed by its folder as an admin lists a local package. */
const GREETER = join(ROOT, "examples", "greeter");

const reply = (value: unknown): { text: string } => ({ text: JSON.stringify(value) });

const count = (player: Player, name: string): number =>
  player.bot.inventory
    .items()
    .filter((item) => item.name === name)
    .reduce((sum, item) => sum + item.count, 0);

/** The step receipts of one tool in the journal's log files, in order (each record is one state change). */
const stepRecords = (dataDir: string, tool: string): { key: string; state: string }[] => {
  const journal = join(dataDir, "world", "system", "journal");
  const files = existsSync(journal) ? readdirSync(journal) : [];
  return files
    .filter((name) => /^journal-\d+\.log$/.test(name))
    .sort()
    .flatMap((name) => decodeFrames(readFileSync(join(journal, name))).payloads)
    .map((payload) => JSON.parse(payload.toString("utf8")) as Record<string, unknown>)
    .filter((record) => record.t === "step" && record.tool === tool)
    .map((record) => ({ key: String(record.key), state: String(record.state) }));
};

/**
 * `examples/greeter`, the extension docs/extending.md walks through, installed as an admin installs a local
 * package (its `system` dependency linked to this checkout) and listed in `extensions.json`, through the shipped
 * assembly with a real bot: its command, its samples, its reasoning tool and its durable write step.
 */
describe("the example extension (examples/greeter)", () => {
  let model: ScriptedModelServer;
  let server: ShippedServer;
  let alex: Player;

  beforeAll(async () => {
    // what postinstall does on a fresh clone: examples/greeter/node_modules/system → the repository root
    execFileSync(process.execPath, [join(ROOT, "scripts", "link-examples.js")]);
    model = await ScriptedModelServer.start();
    server = await startShipped({
      environment: modelEnvironment(model),
      files: { "config/system/extensions.json": JSON.stringify({ extensions: [GREETER] }) },
    });
    alex = await joinPlayer(server.port, "Alex");
  }, 120_000);

  afterAll(async () => {
    alex?.quit();
    await server?.close();
    await model?.close();
  });

  it("answers its command in game, in the player's language, and is listed by help", async () => {
    expect(server.logger.has(`extensions loaded: ${GREETER}`)).toBe(true);
    const greeting = await alex.say("/system greet", (m) => m.text.includes("Welcome to the server"));
    expect(greeting.text).toContain("Welcome to the server, Alex!");
    const help = await alex.say("/system help", (m) => m.text.startsWith("What you can do now"));
    expect(help.text).toContain("/system greet");
    expect(help.text).toContain("Greets you with the server's welcome.");
    await speak(server, alex, "zh_cn");
    try {
      const chinese = await alex.say("/system 问候", (m) => m.text.includes("Welcome to the server"));
      expect(chinese.text).toContain("Welcome to the server，Alex！");
    } finally {
      await speak(server, alex, "en_us");
    }
  });

  it("routes a plain-text sample to its read-only workflow without a model call", async () => {
    const before = model.requests.length;
    const answer = await alex.say("/system welcome me please", (m) =>
      m.text.includes("Welcome to the server"),
    );
    expect(answer.text).toContain("Alex!");
    expect(model.requests.length).toBe(before);
  });

  it("gives the gift through one durable step, once: the receipt is DONE and a repeat gives nothing", async () => {
    const given = await alex.say("/system gift", (m) => m.text.includes("Here is your welcome gift"));
    expect(given.text).toContain("Here is your welcome gift: 3 item(s).");
    await waitFor(() => (count(alex, "bread") === 3 ? true : undefined));
    // a resent command within the replay window is answered with the stored result; nothing runs again
    const resent = await alex.say("/system gift", (m) => m.text.includes("welcome gift"));
    expect(resent.text).toContain("Here is your welcome gift: 3 item(s).");
    // past the window (here: replay off) the workflow runs again and its player storage says it was claimed
    writeFileSync(
      join(server.folder, "config", "system", "system-agent.json"),
      JSON.stringify({ replayWindowSeconds: 0 }),
    );
    await server.system.assistant.infrastructure.agentConfig.reload();
    const again = await alex.say("/system gift", (m) => m.text.includes("already received"));
    expect(again.text).toContain("You have already received your welcome gift.");
    const steps = stepRecords(server.folder, "greeter:give_gift");
    expect(steps.map((step) => step.state)).toEqual(["RUNNING", "DONE"]);
    expect(steps[0]?.key).toMatch(/\/give$/);
    await settled(server, alex);
    expect(count(alex, "bread")).toBe(3);
  });

  it("offers its read-only tool to the reasoning loop, which calls it and answers", async () => {
    const before = model.requests.length;
    model.script(
      reply({ type: "greeter:greeting", input: {} }),
      reply({ type: "answer", text: "The server says: Welcome to the server." }),
    );
    const card = await alex.say("/reason what does the server say to newcomers", (m) =>
      m.text.includes("The server says"),
    );
    expect(card.text).toContain("The server says: Welcome to the server.");
    const calls = model.requests.slice(before);
    expect(calls).toHaveLength(2);
    expect(JSON.stringify(calls[0]?.body)).toContain("greeter:greeting");
    expect(JSON.stringify(calls[1]?.user)).toContain("Welcome to the server");
  });
});
