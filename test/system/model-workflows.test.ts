import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GameClock } from "../../src/game/context-types.js";
import { gate, ScriptedModelServer } from "../support/scripted-model-server.js";
import { SearchTestServer } from "../support/search-server.js";
import {
  joinPlayer,
  modelEnvironment,
  type Player,
  type ShippedServer,
  startShipped,
  uuidOf,
} from "./system-support.js";

/** A ReAct or question reply as the scripted model sends it. */
const reply = (value: unknown): { text: string } => ({ text: JSON.stringify(value) });
type UserJson = Record<string, unknown>;

const GUIDE =
  "<html><head><title>Netherite guide</title></head><body><p>Use a smithing table.</p></body></html>";

/**
 * The shipped server (startSystem, exactly what `npm start` runs) with a model configured through the
 * environment, a loopback search provider, an admin and a player in game.
 */
describe("the shipped server with a model", () => {
  let model: ScriptedModelServer;
  let web: SearchTestServer;
  let server: ShippedServer;
  let admin: Player;
  let steve: Player;
  let steveId: string;
  let offset = 0;
  const clock: GameClock = { now: () => Date.now() + offset, timeZone: "UTC" };

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    web = await SearchTestServer.start();
    web.pages.set("guide", { body: GUIDE });
    web.results = () => [
      { title: "Netherite guide", url: web.page("guide"), content: "Upgrading to netherite" },
    ];
    server = await startShipped({
      clock,
      environment: modelEnvironment(model),
      ops: ["Admin"],
      files: {
        // a server data pack overriding the search feature: the loopback provider, allowed as a private address
        "datapacks/data/system/system_module/search.json": JSON.stringify({
          type: "system:search",
          enabled_by_default: false,
          server: {
            provider: "searxng",
            searxng: { url: `http://127.0.0.1:${web.port}/` },
            allow_private: [`127.0.0.1:${web.port}`],
            fetch: { max_bytes: 65_536, timeout_millis: 5_000, max_redirects: 3, summary_chars: 500 },
          },
        }),
      },
    });
    admin = await joinPlayer(server.port, "Admin");
    steve = await joinPlayer(server.port, "Steve");
    steveId = uuidOf(server.system, "Steve");
    await admin.say("/system knowledge add Diamonds | Diamonds are found deep underground, near lava.", (m) =>
      /Knowledge entry #\d+ added/.test(m.text),
    );
    await admin.say("/system grant Steve system:search", (m) => /grant|search/i.test(m.text));
  }, 120_000);

  afterAll(async () => {
    admin?.quit();
    steve?.quit();
    await server?.close();
    await model?.close();
    await web?.close();
  });

  it("logs which model it uses at start", () => {
    expect(server.logger.has(`model configured: 127.0.0.1:`)).toBe(true);
    expect(server.logger.has("scripted-test-model")).toBe(true);
  });

  it("/reason runs a tool round, then answers", async () => {
    const before = model.requests.length;
    model.script(
      reply({ type: "system:database.query", input: { query: "Diamonds" } }),
      reply({ type: "answer", text: "Dig deep, near lava." }),
    );
    const card = await steve.say("/reason where do I find diamonds", (m) => m.text.includes("Dig deep"));
    expect(card.text).toContain("Dig deep, near lava.");
    const calls = model.requests.slice(before);
    expect(calls).toHaveLength(2);
    const second = calls[1]?.user as { observations: unknown[] };
    expect(JSON.stringify(second.observations)).toContain("Diamonds");
  });

  it("routes plain text through the model once, then from the intent cache without a routing call", async () => {
    const text = "xyzzy plugh frobnicate the shiny thing";
    const before = model.requests.length;
    model.script(reply({ capabilityId: "system:item_query", input: { query: "minecraft:diamond" } }));
    const first = await steve.say(`/system ${text}`, (m) => m.text.includes("minecraft:diamond"));
    expect(first.text).toMatch(/Diamond/);
    expect(model.requests.length - before).toBe(1);
    const again = await steve.say(`/system ${text}`, (m) => m.text.includes("minecraft:diamond"));
    expect(again.text).toMatch(/Diamond/);
    expect(model.requests.length - before).toBe(1);
  });

  it("never caches a route that opened the web: web permission comes only from the current request", async () => {
    const text = "could you look online for facts about diamonds";
    for (let round = 0; round < 2; round++) {
      // a line resent within 3 s shares the running answer: the server clock moves past that, so it really runs
      if (round > 0) offset += 3_200;
      const before = model.requests.length;
      model.script(
        reply({ capabilityId: "system:question", input: { text: "Diamonds", allowWeb: true } }),
        reply({ type: "answer", text: `Deep underground (${round}).`, sources: [1] }),
      );
      await steve.say(`/system ${text}`, (m) => m.text.includes(`Deep underground (${round})`));
      // a routing call each time: the first route was not remembered
      expect(model.requests.length - before).toBe(2);
      expect(
        Object.keys(model.requests[before]?.user as UserJson),
        JSON.stringify(model.requests[before]?.user).slice(0, 300),
      ).toContain("capabilities");
    }
  });

  it("gives the router the recent turns as context when history is on", async () => {
    const before = model.requests.length;
    model.script(reply({ capabilityId: "system:item_query", input: { query: "minecraft:iron_ingot" } }));
    await steve.say("/system quux wibble wobble gadget", (m) => m.text.includes("minecraft:iron_ingot"));
    const routed = model.requests[before]?.user as UserJson & { context?: { history?: { text: string }[] } };
    expect(JSON.stringify(routed.context?.history)).toContain("xyzzy plugh");
  });

  it("/question summarises a stored entry and lists it as the source", async () => {
    const before = model.requests.length;
    model.script(reply({ type: "answer", text: "Look deep underground near lava.", sources: [1] }));
    const card = await steve.say("/question where are diamonds", (m) => m.text.includes("Look deep"));
    expect(card.text).toContain("Diamonds");
    const call = model.requests[before]?.user as { entries: { title: string }[] };
    expect(call.entries.map((entry) => entry.title)).toEqual(["Diamonds"]);
  });

  it("/search reaches the web through the search provider and cites the page", async () => {
    const searches = web.hits("/search");
    model.script(
      reply({ type: "web.search", input: { query: "netherite upgrade" } }),
      reply({ type: "web.fetch", input: { url: web.page("guide") } }),
      reply({ type: "answer", text: "Use a smithing table.", sources: [1] }),
    );
    const card = await steve.say("/search how to upgrade to netherite", (m) =>
      m.text.includes("Use a smithing table"),
    );
    expect(card.text).toContain("Netherite guide");
    expect(web.hits("/search")).toBe(searches + 1);
    expect(web.hits("/page/guide")).toBeGreaterThan(0);
  });

  it("never fetches a page whose IPv6 address embeds a private IPv4 address", async () => {
    const forms = [
      `[::127.0.0.1]:${web.port}`,
      `[::ffff:0:127.0.0.1]:${web.port}`,
      `[64:ff9b:1::127.0.0.1]:${web.port}`,
      `[2002:7f00:1::]:${web.port}`,
      `[2002:a9fe:a9fe::]:${web.port}`,
    ];
    for (const host of forms) {
      const url = `http://${host}/page/guide`;
      web.results = () => [{ title: "Sneaky page", url, content: "Looks harmless" }];
      const pages = web.hits("/page/");
      const before = model.requests.length;
      model.script(
        reply({ type: "web.search", input: { query: "sneaky" } }),
        reply({ type: "web.fetch", input: { url } }),
        reply({ type: "answer", text: `Nothing read from ${host}.`, sources: [] }),
      );
      await steve.say(`/search sneaky page ${forms.indexOf(host)}`, (m) => m.text.includes("Nothing read"));
      expect(web.hits("/page/"), host).toBe(pages);
      const observed = JSON.stringify(
        (model.requests[before + 2]?.user as UserJson | undefined)?.observations,
      );
      expect(observed, host).toMatch(/private|local|refused|not allowed/i);
    }
    web.results = () => [
      { title: "Netherite guide", url: web.page("guide"), content: "Upgrading to netherite" },
    ];
  });

  it("shows a delivered reward's notice to the player", async () => {
    await steve.say("/system checkin", (m) => /Checked in/.test(m.text));
    const notice = await steve.next((m) => m.text.includes("Your check-in reward has arrived"));
    expect(notice.text).toMatch(/Bread/);
  });

  it("refuses a card click while the player's request is running (BUSY)", async () => {
    const card = await steve.say("/system item minecraft:iron_ingot", (m) => m.clicks.length > 0);
    const click = card.clicks.find((value) => value.startsWith("/system card "));
    expect(click).toBeDefined();
    // the answer is held until the click was refused: the request runs meanwhile
    const hold = gate();
    model.script({ ...reply({ type: "answer", text: "Slow answer." }), until: hold.until });
    const from = steve.chat.length;
    steve.bot.chat("/reason think slowly about iron");
    await model.waitForRequests(model.requests.length + 1);
    const busy = await steve.say(click as string, (m) => /busy/i.test(m.text));
    hold.release();
    expect(busy.text).toContain("System is busy");
    await steve.next((m) => steve.chat.indexOf(m) >= from && m.text.includes("Slow answer."));
    // the reasoning loop, like the router, sees the player's recent turns
    const loop = model.requests.at(-1)?.user as { context?: { history?: unknown } } | undefined;
    expect(JSON.stringify(loop?.context?.history)).toContain("minecraft:iron_ingot");
  });

  it("ends a running request when the admin denies its feature, without another model round", async () => {
    const before = model.requests.length;
    const hold = gate();
    model.script(
      { ...reply({ type: "system:database.query", input: { query: "Diamonds" } }), until: hold.until },
      reply({ type: "answer", text: "Never shown." }),
    );
    const answer = steve.say("/reason where are diamonds again", (m) =>
      /not enabled for you|Never shown/.test(m.text),
    );
    await model.waitForRequests(before + 1);
    await admin.say("/system revoke Steve system:reasoning", (m) => /revoke|denied|reasoning/i.test(m.text));
    hold.release();
    const card = await answer;
    expect(card.text).toContain("This feature is not enabled for you");
    expect(model.requests.length - before).toBe(1);
    await admin.say("/system grant Steve system:reasoning", (m) => /grant|reasoning/i.test(m.text));
  });

  it("writes no history for a request running when the player clears it", async () => {
    const hold = gate();
    model.script({ ...reply({ type: "answer", text: "Forgotten answer." }), until: hold.until });
    const before = model.requests.length;
    const answer = steve.say("/reason remember the forgotten castle", (m) =>
      /cancelled|Forgotten answer/.test(m.text),
    );
    await model.waitForRequests(before + 1);
    await steve.say("/system clear", (m) => m.text.includes("history was cleared"));
    hold.release();
    const card = await answer;
    expect(card.text).toContain("The request was cancelled.");
    // a later request waits for earlier history writes, so history is settled once it answers
    await steve.say("/system item minecraft:stick", (m) => m.text.includes("minecraft:stick"));
    const history = await server.system.assistant.infrastructure.conversation.history(steveId);
    expect(JSON.stringify(history)).not.toContain("forgotten castle");
    expect(JSON.stringify(history)).not.toContain("Forgotten answer");
  });

  it("turns the model off for a player whose AI an admin revoked", async () => {
    const before = model.requests.length;
    await admin.say("/system revoke Steve confirm", (m) => /revoked/.test(m.text));
    const card = await steve.say("/reason anything at all", (m) => /AI features/.test(m.text));
    expect(card.text).toContain("AI features are turned off for you.");
    expect(model.requests.length).toBe(before);
    await admin.say("/system grant Steve", (m) => /granted/.test(m.text));
  });
});
