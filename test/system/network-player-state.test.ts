import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GameClock } from "../../src/game/context-types.js";
import { type PostgresCluster, startPostgresCluster } from "../support/postgres-cluster.js";
import {
  advancementRule,
  announceRule,
  held,
  joinPlayer,
  type Player,
  quitAndWait,
  type ShippedServer,
  settled,
  startShipped,
  uuidOf,
  waitFor,
  welcomeGiftQuestFiles,
} from "./system-support.js";

const WELCOME = /^Welcome/;
const ORDERS = /^Your orders/;
const FAREWELL = "See you on the other side.";

/** Everything a bot saw in its action bar (where narration shows when the player turned speech on). */
const actionBar = (player: Player): string[] => {
  const seen: string[] = [];
  player.bot.on("actionBar", (message) => {
    seen.push(message.toString());
  });
  return seen;
};

/**
 * Two shipped servers of one network whose storage.json names one PostgreSQL database: a player's private record
 * (orders, quest progress, preferences) follows them from one server to the other, so what they bought, claimed
 * or chose on A holds on B, and what is given once is given once on the whole network.
 */
describe("a player's record across a network of two servers (shipped servers, real bots)", () => {
  let cluster: PostgresCluster;
  let serverA: ShippedServer;
  let serverB: ShippedServer;
  const players: Player[] = [];
  const clock: GameClock = { now: () => Date.now(), timeZone: "UTC" };

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const url = await cluster.createDatabase("network");
    const files = {
      "config/system/storage.json": JSON.stringify({ backend: "postgres", url, poolSize: 4 }),
      "config/system/advancements.json": JSON.stringify({
        rules: [
          advancementRule(
            "welcome",
            "system:first_join",
            {},
            "system:welcome",
            { items: [{ item: "minecraft:apple", count: 4 }] },
            "once",
          ),
          announceRule("farewell", "system:leave", {}, FAREWELL),
        ],
      }),
      ...welcomeGiftQuestFiles(),
    };
    serverA = await startShipped({ files, clock, ops: ["Admin"] });
    serverB = await startShipped({ files, clock, ops: ["Admin"] });
  }, 180_000);

  afterAll(async () => {
    for (const player of players) player.quit();
    await serverA?.close();
    await serverB?.close();
    await cluster?.stop();
  });

  const join = async (server: ShippedServer, name: string): Promise<Player> => {
    const player = await joinPlayer(server.port, name);
    players.push(player);
    return player;
  };

  /** The admin on A gives a player who joined A points (the network's ledger). */
  const givePoints = async (name: string, points: number): Promise<void> => {
    const admin = await join(serverA, "Admin");
    await admin.say(`/system points give ${name} ${points}`, (m) => m.text.startsWith("Gave"));
    await quitAndWait(serverA, admin, "Admin");
  };

  it("gives the welcome kit once across both servers; speech turned on at A narrates at B", async () => {
    const onA = await join(serverA, "Steve");
    await onA.next((m) => WELCOME.test(m.text));
    await waitFor(() => (held(onA, "apple") === 4 ? true : undefined));
    const on = await onA.say("/system settings speech on", (m) => /Speech/.test(m.text));
    expect(on.text).toMatch(/^Speech is on/);
    await settled(serverA, onA);
    await quitAndWait(serverA, onA, "Steve");

    const onB = await join(serverB, "Steve");
    const bar = actionBar(onB);
    await onB.say("/system checkin", (m) => /Checked in/.test(m.text));
    await waitFor(() => (bar.some((line) => /Checked in: day 1/.test(line)) ? true : undefined));
    await settled(serverB, onB);
    expect(onB.chat.filter((m) => WELCOME.test(m.text))).toEqual([]);
    expect(held(onB, "apple")).toBe(0);
    await quitAndWait(serverB, onB, "Steve");
  });

  it("shows on B the order bought and delivered on A, and replays there a command repeated from A", async () => {
    const onA = await join(serverA, "Alex");
    await givePoints("Alex", 30);
    const quote = await onA.say("/system buy bread 10", (m) => m.text.startsWith("Quote"));
    await onA.say(quote.clicks[0] as string, (m) => /Order/.test(m.text));
    await onA.next((m) => /delivered: Bread × 10/.test(m.text));
    await waitFor(() => (held(onA, "bread") === 10 ? true : undefined));
    const checkIn = await onA.say("/system checkin", (m) => /^Checked in!/.test(m.text));
    await settled(serverA, onA);
    await quitAndWait(serverA, onA, "Alex");

    const onB = await join(serverB, "Alex");
    const orders = await onB.say("/system orders", (m) => ORDERS.test(m.text));
    expect(orders.text).toContain("Bread × 10 · 20 points · delivered");
    expect(orders.text).toContain("Balance: 20 points.");
    // the chat cache came along: the same command within the replay window is answered from A's stored reply,
    // read as a repeat that announces no reward (no bread comes on B)
    const repeat = await onB.say("/system checkin", (m) => /checked in/i.test(m.text));
    expect(checkIn.text).toMatch(/^Checked in!/);
    expect(repeat.text).toMatch(
      /^You have already checked in today .*\n↻ This repeats the answer given \d+ s ago/s,
    );
    expect((await onB.say("/system balance", (m) => /^Your points/.test(m.text))).text).toMatch(
      /^Your points: 20\n/,
    );
    await settled(serverB, onB);
    expect(onB.chat.filter((m) => /delivered: Bread/.test(m.text))).toEqual([]);
    await quitAndWait(serverB, onB, "Alex");
  });

  it("delivers on B, once, an order confirmed on A right before the player moved", async () => {
    const onA = await join(serverA, "Bob");
    await givePoints("Bob", 10);
    const uuid = uuidOf(serverA.system, "Bob");
    const quote = await onA.say("/system buy torch 2", (m) => m.text.startsWith("Quote"));
    onA.bot.chat(quote.clicks[0] as string);
    await quitAndWait(serverA, onA, "Bob");
    // A found the player gone: the delivery waits for them, wherever they join next
    await serverA.system.assistant.turnSettled(uuid);
    await serverA.system.assistant.events.whenIdle();

    const onB = await join(serverB, "Bob");
    await onB.next((m) => /delivered: Torch × 8/.test(m.text));
    await waitFor(() => (held(onB, "torch") === 8 ? true : undefined));
    const orders = await onB.say("/system orders", (m) => ORDERS.test(m.text));
    expect(orders.text).toContain("Torch × 8 · 6 points · delivered");
    expect(orders.text).toContain("Balance: 4 points.");
    await settled(serverB, onB);
    expect(onB.chat.filter((m) => /delivered: Torch/.test(m.text)).length).toBe(1);
    await quitAndWait(serverB, onB, "Bob");
    // back on A: nothing more is given there
    const back = await join(serverA, "Bob");
    await settled(serverA, back);
    expect(back.chat.filter((m) => /delivered: Torch/.test(m.text))).toEqual([]);
    await quitAndWait(serverA, back, "Bob");
  });

  it("shows on B the quest rewards claimed on A, and offers no second claim", async () => {
    const onA = await join(serverA, "Nia");
    const card = await onA.say("/system quest welcome gift", (m) => m.text.startsWith("Welcome Gift"));
    const claim = card.clicks.find((value) => value.startsWith("/system card "));
    expect(claim).toBeDefined();
    await onA.say(claim as string, (m) => /claimed/.test(m.text));
    await onA.next((m) => /^Rewards of Welcome Gift delivered/.test(m.text));
    await waitFor(() => (held(onA, "bread") === 3 ? true : undefined));
    await settled(serverA, onA);
    await quitAndWait(serverA, onA, "Nia");

    const onB = await join(serverB, "Nia");
    const after = await onB.say("/system quest welcome gift", (m) => m.text.startsWith("Welcome Gift"));
    expect(after.text).toContain("Rewards claimed.");
    expect(after.clicks.filter((value) => value.startsWith("/system card "))).toEqual([]);
    await settled(serverB, onB);
    expect(held(onB, "bread")).toBe(0);
    await quitAndWait(serverB, onB, "Nia");
  });

  it("runs on B a task A queued for the player after they moved there (the new join before the old leave)", async () => {
    const onA = await join(serverA, "Zoe");
    await settled(serverA, onA);
    const onB = await join(serverB, "Zoe");
    await settled(serverB, onB);
    // the leave on A queues the farewell rule's task there, where Zoe is no longer online: B hears of it and runs it
    await quitAndWait(serverA, onA, "Zoe");
    const farewell = await onB.next((m) => m.text === FAREWELL);
    expect(farewell.text).toBe(FAREWELL);
    await serverA.system.assistant.events.whenIdle();
    await settled(serverB, onB);
    expect(onB.chat.filter((m) => m.text === FAREWELL).length).toBe(1);
    await quitAndWait(serverB, onB, "Zoe");
  });
});
