import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import mc from "minecraft-protocol";
import nbt from "prismarine-nbt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ADVANCEMENTS } from "../../src/assistant/advancement-rules.js";
import { customClickFrame, readShowDialog } from "../../src/host/gateway/dialog/dialog-packets.js";
import { PacketCodec } from "../../src/host/gateway/protocol/packet-codec.js";
import { type RunningGateway, startGateway } from "../../src/host/gateway/start-gateway.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { offlineUuid } from "../../src/util/offline-uuid.js";
import { type DialogBackend, startDialogBackend } from "../support/dialog-backend.js";
import { type RconServer, startRconServer } from "../support/rcon-server.js";
import { tempFolder, waitFor } from "./gateway-support.js";
import { advancementRule } from "./system-support.js";

type Simple = Record<string, unknown>;
const VERSION = "1.21.8";
const PASSWORD = "window-shop";
const ORDERS_TIMEOUT = 120_000;
const codec = PacketCodec.forVersion(VERSION) as PacketCodec;
const language = (
  createRequire(import.meta.url)("minecraft-data")(VERSION) as { language: Record<string, string> }
).language;
/** A vanilla reply text of this version with its arguments. */
const say = (key: string, ...args: (string | number)[]): string => {
  let next = 0;
  return (language[key] ?? key).replace(/%(?:(\d+)\$)?s/gu, (_match, position?: string) =>
    String(args[position === undefined ? next++ : Number(position) - 1] ?? ""),
  );
};

/**
 * A purchase confirmed in the window: the quote is a `confirmation` dialog whose Confirm pays once; the same
 * click again (on the replaced window) charges nothing: the balance drops once by the price and one order exists.
 * The 1.21.8 backend stand-in has a small RCON beside it, answering with vanilla's reply texts, so the shop quotes
 * (it refuses without a way to give items); the delivery that follows is the effects' own concern, not read here.
 */
describe("gateway: a purchase confirmed in the window", () => {
  let backend: DialogBackend;
  let rcon: RconServer;
  let gateway: RunningGateway;
  const logger = new MemoryLogger();
  const gives: string[] = [];
  let client: mc.Client & { writeRaw(frame: Buffer): void };
  const dialogs: Simple[] = [];

  beforeAll(async () => {
    backend = await startDialogBackend(VERSION);
    rcon = await startRconServer({
      password: PASSWORD,
      handle: (command) => {
        const words = command.split(" ");
        if (words[0] === "give") {
          gives.push(command);
          return say("commands.give.success.single", words[3] ?? "1", "[Bread]", words[1] ?? "");
        }
        if (words[0] === "data") return say("commands.data.entity.query", words[3] ?? "", "[]");
        if (words[0] === "save-all") return say("commands.save.saving") + say("commands.save.success");
        if (words[0] === "list") return say("commands.list.players", 1, 20, "Alex");
        return say("command.unknown.command");
      },
    });
    const dataDir = tempFolder("gateway-window-shop-");
    const config = join(dataDir, "config/system");
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "rcon.secret"), `${PASSWORD}\n`);
    chmodSync(join(config, "rcon.secret"), 0o600);
    writeFileSync(
      join(config, "gateway.json"),
      JSON.stringify({
        rcon: {
          host: "127.0.0.1",
          port: rcon.port,
          passwordFile: "config/system/rcon.secret",
          saveIntervalSeconds: 0,
        },
      }),
    );
    writeFileSync(
      join(config, "advancements.json"),
      JSON.stringify({
        rules: [
          ...DEFAULT_ADVANCEMENTS.rules.filter((rule) => (rule as { id: string }).id === "welcome"),
          advancementRule("allowance", "system:join", {}, "system:points_bonus", { points: 100 }, "once"),
        ],
      }),
    );
    gateway = await startGateway({
      argv: ["--backend", `127.0.0.1:${backend.port}`, "--port", "0", "--data-dir", dataDir],
      logger,
      announce: () => {},
      environment: {},
    });
    client = mc.createClient({
      host: "127.0.0.1",
      port: gateway.port,
      username: "Alex",
      version: VERSION,
      auth: "offline",
      keepAlive: false,
    }) as typeof client;
    client.on("error", () => {});
    (client as unknown as NodeJS.EventEmitter).on(
      "raw",
      (bytes: Buffer, meta: { state: string; name: string }) => {
        if (meta.state !== "play" || meta.name !== "show_dialog") return;
        const read = readShowDialog(bytes);
        if (read !== undefined && "dialog" in read) dialogs.push(nbt.simplify(read.dialog) as Simple);
      },
    );
    await waitFor(
      () => (gateway.assistant?.infrastructure.players.online(offlineUuid("Alex")) ? true : undefined),
      60_000,
    );
    // the join's allowance (an event task) is credited before the purchase
    for (let tries = 0; (await balanceOf()) < 100; tries++) {
      if (tries > 600) throw new Error("no allowance");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 120_000);

  afterAll(async () => {
    client?.end("test over");
    await gateway?.close();
    await rcon?.close();
    await backend?.close();
  });

  const balanceOf = async (): Promise<number> => {
    const card = await gateway.assistant?.submit(
      { uuid: offlineUuid("Alex"), name: "Alex", locale: "en_us", opLevel: 0 },
      "/system balance",
    );
    return Number(/(\d+)/u.exec(card?.card?.title ?? "")?.[1] ?? 0);
  };

  it("shows the quote as a confirmation dialog; Confirm pays once, and the same click again charges nothing", {
    timeout: ORDERS_TIMEOUT,
  }, async () => {
    client.writeRaw(
      customClickFrame(
        codec,
        "system:ask",
        nbt.comp({ text: nbt.string("/system buy bread 2") }) as nbt.Compound,
      ),
    );
    const quote = await waitFor(
      () => dialogs.find((dialog) => dialog.type === "minecraft:confirmation"),
      60_000,
    );
    const before = await balanceOf();
    const yes = (quote.yes as { action: { id: string; payload: Record<string, string> } }).action;
    expect(yes.id).toBe("system:card");
    const frame = customClickFrame(
      codec,
      "system:card",
      nbt.comp(
        Object.fromEntries(Object.entries(yes.payload).map(([key, value]) => [key, nbt.string(value)])),
      ) as nbt.Compound,
    );
    const shown = dialogs.length;
    client.writeRaw(frame);
    const order = await waitFor(() => dialogs[shown], 15_000).catch((error: unknown) => {
      console.log(logger.lines.slice(-20).join("\n"));
      throw error;
    });
    expect(JSON.stringify(order)).toMatch(/Order/);
    // the card says the order is placed; its charge is the purchase task's first step, which may still run
    await expect.poll(balanceOf).toBeLessThan(before);
    const paid = await balanceOf();
    client.writeRaw(frame);
    await waitFor(() => logger.lines.find((line) => line.includes("from a replaced window")));
    expect(await balanceOf()).toBe(paid);
    expect(paid).toBe(before - 4);
    // one order: the paid one
    const orders = await gateway.assistant?.submit(
      { uuid: offlineUuid("Alex"), name: "Alex", locale: "en_us", opLevel: 0 },
      "/system orders",
    );
    expect((orders?.card?.lines ?? []).filter((line) => line.includes("Bread")).length).toBe(1);
  });
});
