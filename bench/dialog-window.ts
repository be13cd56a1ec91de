/**
 * In-game window benchmark: a request sent from System's window (a 1.21.8 client's `system:ask` click) until its
 * result dialog arrives, against the same request typed in chat (`/system item minecraft:diamond`, a local route)
 * until its card arrives in chat. A 1.21.8 backend stand-in (test/support/dialog-backend.ts) and the gateway as
 * `system gateway` starts it run in this process with a minecraft-protocol client, so load on the machine weighs
 * on both sides alike; the two are interleaved. Arrival is the frame's, read before the client library parses it. SYSTEM_BENCH_WINDOW_REQUESTS (100) each; p50/p99 and the ratio
 * window/chat (target: ≤ 1.2×). Run: `npm run bench -- dialog-window`. Prints figures; asserts nothing.
 */
import mc from "minecraft-protocol";
import nbt from "prismarine-nbt";
import { customClickFrame } from "../src/host/gateway/dialog/dialog-packets.js";
import { PacketCodec } from "../src/host/gateway/protocol/packet-codec.js";
import { startGateway } from "../src/host/gateway/start-gateway.js";
import { silentLogger } from "../src/util/logger.js";
import { tempFolder } from "../test/e2e/host-support.js";
import { startDialogBackend } from "../test/support/dialog-backend.js";

const REQUESTS = Number(process.env.SYSTEM_BENCH_WINDOW_REQUESTS ?? 100);
const VERSION = "1.21.8";
const LINE = "system item minecraft:diamond";

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

const main = async (): Promise<void> => {
  const codec = PacketCodec.forVersion(VERSION) as PacketCodec;
  const backend = await startDialogBackend(VERSION);
  const gateway = await startGateway({
    argv: [
      "--backend",
      `127.0.0.1:${backend.port}`,
      "--port",
      "0",
      "--panel-port",
      "0",
      "--data-dir",
      tempFolder("bench-window-"),
    ],
    logger: silentLogger,
    announce: () => {},
    environment: {},
  });
  const client = mc.createClient({
    host: "127.0.0.1",
    port: gateway.port,
    username: "Bench",
    version: VERSION,
    auth: "offline",
    keepAlive: false,
  }) as mc.Client & { writeRaw(frame: Buffer): void };
  let waiting: { kind: "dialog" | "chat"; done: () => void } | undefined;
  // frames as they arrive, before the client library parses them (its NBT parse is not the gateway's time)
  const showDialog = Buffer.from([codec.idOf("play", "toClient", "show_dialog") ?? 0, 1]);
  const systemChat = codec.idOf("play", "toClient", "system_chat") ?? -1;
  const marker = Buffer.from("minecraft:diamond");
  (client as unknown as { splitter: NodeJS.EventEmitter }).splitter.on("data", (frame: Buffer) => {
    if (waiting?.kind === "dialog" && frame.subarray(0, 2).equals(showDialog)) waiting.done();
    else if (waiting?.kind === "chat" && frame[0] === systemChat && frame.includes(marker)) waiting.done();
  });
  await new Promise<void>((resolve) => client.once("login", () => resolve()));
  // the join settles (the welcome card) before the first request
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const ask = customClickFrame(
    codec,
    "system:ask",
    nbt.comp({ text: nbt.string(`/${LINE}`) }) as nbt.Compound,
  );
  const timed = (kind: "dialog" | "chat", send: () => void): Promise<number> =>
    new Promise((resolve) => {
      const start = performance.now();
      waiting = {
        kind,
        done: () => {
          waiting = undefined;
          resolve(performance.now() - start);
        },
      };
      send();
    });
  const window: number[] = [];
  const chat: number[] = [];
  for (let round = 0; round < REQUESTS + 5; round++) {
    const dialog = await timed("dialog", () => client.writeRaw(ask));
    const line = await timed("chat", () => client.write("chat_command", { command: LINE }));
    // the first rounds warm both paths up
    if (round < 5) continue;
    window.push(dialog);
    chat.push(line);
  }
  const row = (name: string, values: number[]) =>
    `${name.padEnd(30)} p50 ${percentile(values, 50).toFixed(2)} ms  p99 ${percentile(values, 99).toFixed(2)} ms`;
  console.log(`${REQUESTS} requests each, interleaved (local route: /${LINE})`);
  console.log(row("window: Send → result dialog", window));
  console.log(row("chat: /system … → card", chat));
  console.log(
    `ratio window/chat: p50 ${(percentile(window, 50) / percentile(chat, 50)).toFixed(2)}×  p99 ${(percentile(window, 99) / percentile(chat, 99)).toFixed(2)}×  (target ≤ 1.2×)`,
  );
  client.end("bench over");
  await gateway.close();
  await backend.close();
};

await main();
process.exit(0);
