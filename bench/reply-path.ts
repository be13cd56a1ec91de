// The server's share of one in-game answer, in process: `/system item <a different item each time>` from the command
// handler to the encoded reply packet (serialized and compressed as the connection writes it, socket left out), against
// the reply of flying-squid's own `/ping` (its `pong` line through the same sendCard and encoding), interleaved.
// A real server (startSystem, as `npm start`) with one joined mineflayer bot whose player is wrapped: its cards are
// encoded here instead of being written to the socket. Also prints the card's packet size and the encoding's share.
// Run: npx tsx --expose-gc bench/reply-path.ts   (or: npm run bench reply-path). Env: SYSTEM_BENCH_REQUESTS (1000),
// SYSTEM_BENCH_TELEMETRY=off|metrics|traces|traces-all (what telemetry costs a request; SYSTEM_BENCH_METRICS=0 is
// `off`), SYSTEM_BENCH_PROFILE=FILE
// (a CPU profile of the measured requests alone, warm-up and start-up left out, written to FILE).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import minecraftData from "minecraft-data";
import minecraftProtocol from "minecraft-protocol";
import { systemClock } from "../src/game/context-types.js";
import { legacyComponent } from "../src/host/flying-squid/legacy-text.js";
import { startSystem } from "../src/host/flying-squid/start-system.js";
import { AssistantHostHandler } from "../src/host/shared/assistant-handler.js";
import type { ChatComponent } from "../src/host/shared/chat-component.js";
import {
  type ProtocolDescription,
  systemChatBytes,
  systemChatPacketId,
} from "../src/host/shared/chat-nbt.js";
import { chatDialect, chatPacket } from "../src/host/shared/chat-packets.js";
import type { HostPlayer } from "../src/host/shared/host-handler.js";
import { OnlinePlayers } from "../src/host/shared/online-players.js";
import { MemoryLogger } from "../src/util/logger.js";
import { joinBot, tempFolder, waitFor } from "../test/e2e/host-support.js";
import { OtlpReceiver } from "../test/support/otlp-receiver.js";

const REQUESTS = Number(process.env.SYSTEM_BENCH_REQUESTS ?? 1000);
const VERSION = "1.21.4";
/** minecraft-protocol's default compression threshold, which flying-squid keeps: longer packets are deflated. */
const COMPRESSION_THRESHOLD = 256;

const data = minecraftData(VERSION);
const dialect = chatDialect(
  (feature) => data.supportFeature(feature as never) === true,
  data.version.version ?? 0,
);
const serializer = minecraftProtocol.createSerializer({
  state: minecraftProtocol.states.PLAY,
  isServer: true,
  version: VERSION,
  customPackets: {},
});

const systemChatId = systemChatPacketId(data as ProtocolDescription);

/** What the player's sendCard and the connection do with a card: its packet's bytes, deflated at the threshold. */
const encodeCard = (component: ChatComponent): number => {
  const buffer =
    (systemChatId === undefined ? undefined : systemChatBytes(systemChatId, component, dialect, false)) ??
    serialize(component);
  return buffer.length >= COMPRESSION_THRESHOLD ? deflateSync(buffer).length : buffer.length;
};

/** The packet as the protocol's serializer writes it (what every card cost before it was written directly). */
const serialize = (component: ChatComponent): Buffer => {
  const packet = chatPacket(dialect, component);
  return serializer.createPacketBuffer({ name: packet.name, params: packet.params });
};

/** Mean µs of `work` over `times` runs. */
const timed = (times: number, work: () => unknown): number => {
  const started = now();
  for (let index = 0; index < times; index++) work();
  return (now() - started) / times;
};

const now = (): number => Number(process.hrtime.bigint()) / 1e3;
const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const mean = (values: readonly number[]): number =>
  values.reduce((sum, value) => sum + value, 0) / values.length;
const us = (micros: number): string => `${micros.toFixed(0).padStart(6)} µs`;

const main = async (): Promise<void> => {
  console.log(
    `machine: ${cpus().length} cores, load ${loadavg()
      .map((v) => v.toFixed(1))
      .join(" ")}`,
  );
  const folder = tempFolder("system-bench-reply-");
  mkdirSync(join(folder, "config", "system"), { recursive: true });
  writeFileSync(
    join(folder, "config", "system", "server.json"),
    JSON.stringify({ generation: "superflat", viewDistance: 2 }),
  );
  // SYSTEM_BENCH_TELEMETRY: off (no metrics, no traces), metrics (the default), traces (metrics and traces with
  // the default cap), traces-all (every request traced), each exporting to a counting OTLP receiver in this process
  const variant =
    process.env.SYSTEM_BENCH_TELEMETRY ?? (process.env.SYSTEM_BENCH_METRICS === "0" ? "off" : "metrics");
  const receiver = variant.startsWith("traces") ? await OtlpReceiver.start({ keep: false }) : undefined;
  writeFileSync(
    join(folder, "config", "system", "telemetry.json"),
    JSON.stringify({
      metrics: { enabled: variant !== "off" },
      ...(variant === "traces-all" ? { traces: { maxPerSecond: 0 } } : {}),
    }),
  );
  const system = await startSystem({
    clock: systemClock(),
    argv: ["--port", "0", "--panel-port", "0", "--data-dir", folder],
    environment: receiver === undefined ? {} : { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
    logger: new MemoryLogger(),
    announce: () => {},
  });
  const bot = await joinBot(system.host.port, "Bench0");
  bot.physicsEnabled = false;
  try {
    const real = await waitFor(() => system.host.players()[0]);
    // the player's cards are encoded here (counted in `encoding`) instead of going to the socket
    const encoding = { micros: 0, bytes: 0, cards: 0 };
    /** When the last card was encoded: the moment the connection would have written it. */
    let sentAt = 0;
    let lastCard: ChatComponent = { text: "" };
    const sendCard = (component: ChatComponent): void => {
      lastCard = component;
      const started = now();
      encoding.bytes += encodeCard(component);
      sentAt = now();
      encoding.micros += sentAt - started;
      encoding.cards++;
    };
    // methods bound once, so the wrapper itself costs next to nothing per call
    const bound = new Map<PropertyKey, unknown>([
      ["sendCard", sendCard],
      ["sendActionBar", () => {}],
      ["sendTitle", () => {}],
    ]);
    const player = new Proxy(real, {
      get: (target, property) => {
        const known = bound.get(property);
        if (known !== undefined) return known;
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== "function") return value;
        const method = value.bind(target);
        bound.set(property, method);
        return method;
      },
    }) as HostPlayer;
    const handler = new AssistantHostHandler(
      system.assistant,
      new OnlinePlayers(new MemoryLogger()),
      undefined,
    );
    const items = (data.itemsArray as { name: string }[]).slice(1).map((item) => `minecraft:${item.name}`);
    let next = 0;
    /** Until the card is written (what the player waits for), and until the handler is done with the request. */
    const item = async (): Promise<{ reply: number; done: number }> => {
      // a request comes as a packet, in a later turn of the event loop than the reply before it: what that reply
      // left for after itself (its log line, its history write) runs first, as in the game
      await new Promise((resolve) => setImmediate(resolve));
      const started = now();
      await handler.onCommand(player, `system item ${items[next++ % items.length]}`);
      return { reply: sentAt - started, done: now() - started };
    };
    const ping = (): number => {
      const started = now();
      // flying-squid's /ping answers `player.chat("pong")`, which System's plugin sends as this card
      player.sendCard(legacyComponent("pong"));
      return now() - started;
    };
    for (let index = 0; index < 50; index++) {
      await item();
      ping();
    }
    const ours: number[] = [];
    const whole: number[] = [];
    const builtin: number[] = [];
    Object.assign(encoding, { micros: 0, bytes: 0, cards: 0 });
    const profile = process.env.SYSTEM_BENCH_PROFILE;
    const session = profile === undefined ? undefined : new Session();
    if (session !== undefined) {
      session.connect();
      await session.post("Profiler.enable");
      await session.post("Profiler.setSamplingInterval", { interval: 50 });
      await session.post("Profiler.start");
    }
    for (let index = 0; index < REQUESTS; index++) {
      const timing = await item();
      ours.push(timing.reply);
      whole.push(timing.done);
      builtin.push(ping());
    }
    if (session !== undefined && profile !== undefined) {
      const { profile: taken } = await session.post("Profiler.stop");
      writeFileSync(profile, JSON.stringify(taken));
      session.disconnect();
    }
    const card = lastCard;
    const direct = (): unknown => systemChatBytes(systemChatId ?? 0, card, dialect, false);
    const serialized = timed(2000, () => serialize(card));
    const written = timed(2000, direct);
    const deflated = timed(2000, () => deflateSync(serialize(card))) - serialized;
    const itemEncodeMicros = (encoding.micros - builtin.reduce((sum, value) => sum + value, 0)) / REQUESTS;
    const pingBytes = encodeCard(legacyComponent("pong"));
    const itemBytes = (encoding.bytes - pingBytes * REQUESTS) / REQUESTS;
    console.log(
      `\nserver's share of one reply, in process, interleaved, N=${REQUESTS} each, telemetry ${variant}`,
    );
    console.log("  command                          p50          mean         p99");
    console.log(
      `  /system item <item>, reply       ${us(quantile(ours, 0.5))}    ${us(mean(ours))}    ${us(quantile(ours, 0.99))}`,
    );
    console.log(
      `  /system item <item>, handler     ${us(quantile(whole, 0.5))}    ${us(mean(whole))}    ${us(quantile(whole, 0.99))}`,
    );
    console.log(
      `  /ping's reply (pong card)        ${us(quantile(builtin, 0.5))}    ${us(mean(builtin))}    ${us(quantile(builtin, 0.99))}`,
    );
    console.log(
      `  item card encoding (mean)        ${us(itemEncodeMicros)}, ${itemBytes.toFixed(0)} bytes on the wire (pong: ${pingBytes})`,
    );
    console.log(
      `  the last card's packet ×2000:   serializer ${us(serialized)}, written directly ${us(written)}` +
        ` (${(serialized / written).toFixed(1)}×), deflate ${us(deflated)}`,
    );
    console.log(
      `  ratio item/ping p50              ${(quantile(ours, 0.5) / quantile(builtin, 0.5)).toFixed(1)}×`,
    );
  } finally {
    bot.quit();
    await system.close();
    if (receiver !== undefined) console.log(`  spans received: ${receiver.received}`);
    await receiver?.close();
    rmSync(folder, { recursive: true, force: true });
  }
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
