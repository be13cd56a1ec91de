import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { cardComponent } from "../shared/card-component.js";
import { actionBarPacket, chatDialect, chatPacket } from "../shared/chat-packets.js";
import type { SquidClient, SquidPlayer, SquidServer } from "./flying-squid-types.js";
import { SquidHostPlayer } from "./host-player.js";

const require = createRequire(import.meta.url);
const protocol = require("minecraft-protocol") as {
  createSerializer(options: { state: string; isServer: boolean; version: string }): {
    createPacketBuffer(packet: { name: string; params: unknown }): Buffer;
  };
};

/** A player on flying-squid's registry of `version` whose connection records what is written to it. */
const connected = (version: string, options: { raw: boolean; held?: number }) => {
  const registry = require("prismarine-registry")(version) as SquidServer["registry"] & {
    supportFeature(feature: string): boolean;
    version: { version: number };
  };
  const written: { name: string; params: Record<string, unknown> }[] = [];
  const raw: Buffer[] = [];
  const client = Object.assign(new EventEmitter(), {
    protocolVersion: registry.version.version,
    version,
    username: "Alex",
    uuid: "00000000-0000-0000-0000-00000000000a",
    write: (name: string, params: Record<string, unknown>) => written.push({ name, params }),
    ...(options.raw ? { writeRaw: (buffer: Buffer) => raw.push(Buffer.from(buffer)) } : {}),
    serializer: { readableLength: options.held ?? 0, writableLength: 0 },
  }) as unknown as SquidClient;
  const player = Object.assign(new EventEmitter(), { _client: client }) as unknown as SquidPlayer;
  const serv = {
    registry,
    players: [player],
    supportFeature: (feature: string) => registry.supportFeature(feature),
  } as unknown as SquidServer;
  const host = new SquidHostPlayer(serv, player, "en_us", undefined, false);
  const serializer = protocol.createSerializer({ state: "play", isServer: true, version });
  const dialect = chatDialect((feature) => registry.supportFeature(feature), registry.version.version);
  return { host, written, raw, serializer, dialect };
};

const CARD = cardComponent({
  title: "Diamond (钻石)",
  lines: ["ID: minecraft:diamond · stacks to 64"],
  buttons: [{ label: "Sources of Coal", ref: "c42@0", action: "0", hover: "Sources of Coal" }],
});

describe("SquidHostPlayer cards", () => {
  it("writes a 1.20.3+ card and action bar as the serializer's bytes, without serializing them again", () => {
    const { host, written, raw, serializer, dialect } = connected("1.21.4", { raw: true });
    host.sendCard(CARD);
    host.sendActionBar({ text: "thinking…", color: "gray" });
    expect(written).toEqual([]);
    const card = chatPacket(dialect, CARD);
    const bar = actionBarPacket(dialect, { text: "thinking…", color: "gray" });
    expect(raw.map((buffer) => buffer.toString("hex"))).toEqual([
      serializer.createPacketBuffer(card).toString("hex"),
      serializer.createPacketBuffer(bar).toString("hex"),
    ]);
  });

  it("never writes a card's bytes past packets the serializer still holds", () => {
    const slow = connected("1.21.4", { raw: true, held: 1 });
    slow.host.sendCard(CARD);
    expect(slow.raw).toEqual([]);
    expect(slow.written).toEqual([chatPacket(slow.dialect, CARD)]);
  });

  it("writes packets by name where chat is JSON text or the connection cannot take bytes", () => {
    const older = connected("1.20.1", { raw: true });
    older.host.sendCard(CARD);
    expect(older.raw).toEqual([]);
    expect(older.written).toEqual([chatPacket(older.dialect, CARD)]);
    const plain = connected("1.21.4", { raw: false });
    plain.host.sendCard(CARD);
    expect(plain.written).toEqual([chatPacket(plain.dialect, CARD)]);
  });
});
