import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { cardComponent } from "./card-component.js";
import type { ChatComponent } from "./chat-component.js";
import { systemChatBytes, systemChatPacketId } from "./chat-nbt.js";
import { chatDialect, chatPacket } from "./chat-packets.js";

const require = createRequire(import.meta.url);
const minecraftData = require("minecraft-data") as (version: string) => {
  supportFeature(feature: string): boolean;
  version: { version: number };
};
const protocol = require("minecraft-protocol") as {
  createSerializer(options: { state: string; isServer: boolean; version: string }): {
    createPacketBuffer(packet: { name: string; params: unknown }): Buffer;
  };
};

/** What the connection's serializer writes for the component (the bytes players have always received). */
const serialized = (version: string, component: ChatComponent, actionBar = false): Buffer => {
  const data = minecraftData(version);
  const packet = chatPacket(
    chatDialect((feature) => data.supportFeature(feature), data.version.version),
    component,
  );
  const serializer = protocol.createSerializer({ state: "play", isServer: true, version });
  return serializer.createPacketBuffer({
    name: packet.name,
    params: { ...packet.params, isActionBar: actionBar },
  });
};

const direct = (version: string, component: ChatComponent, actionBar = false): Buffer | undefined => {
  const data = minecraftData(version);
  const dialect = chatDialect((feature) => data.supportFeature(feature), data.version.version);
  const id = systemChatPacketId(data as never);
  if (id === undefined) throw new Error(`no system_chat id for ${version}`);
  return systemChatBytes(id, component, dialect, actionBar);
};

const CARD = cardComponent({
  title: "Stick (木棍) §c",
  lines: [
    "ID: minecraft:stick · stacks to 64",
    "  2× Pale Oak Planks → makes 4",
    "emoji 🙂 and \u0000 nul",
    "lone \ud800 high, lone \udc00 low, end \ud83d",
  ],
  buttons: [
    {
      label: "Sources of Pale Oak Planks",
      ref: "f1408f0f@0",
      action: "0",
      hover: "Sources of Pale Oak Planks",
    },
    { label: "Open", ref: "f1408f0f@0", action: "1" },
  ],
});

const COMPONENTS: readonly ChatComponent[] = [
  { text: "pong" },
  { text: "" },
  CARD,
  {
    text: "a",
    color: "red",
    bold: false,
    italic: true,
    underlined: true,
    clickEvent: { action: "open_url", value: "https://example.com/" },
    hoverText: { text: "h", extra: [{ text: "deep", bold: true, hoverText: { text: "deeper" } }] },
    extra: [
      { text: "b", clickEvent: { action: "copy_to_clipboard", value: "x" } },
      { text: "c", clickEvent: { action: "suggest_command", value: "/system " } },
      { text: "d", clickEvent: { action: "custom", value: "system:open" } },
    ],
  },
  { text: "x".repeat(70_000 / 3), extra: [] },
];

describe("systemChatBytes", () => {
  for (const version of ["1.20.4", "1.21.4", "1.21.5", "1.21.8"])
    it(`writes the serializer's bytes for every kind of component on ${version}`, () => {
      for (const component of COMPONENTS)
        for (const actionBar of [false, true])
          expect(direct(version, component, actionBar)?.toString("hex")).toBe(
            serialized(version, component, actionBar).toString("hex"),
          );
    });

  it("leaves a text too long for NBT to the serializer", () => {
    expect(direct("1.21.4", { text: "x", extra: [{ text: "y".repeat(70_000) }] })).toBeUndefined();
  });

  it("knows system_chat only where its fields are the NBT content and isActionBar", () => {
    expect(systemChatPacketId(minecraftData("1.21.4") as never)).toBe(0x73);
    // 1.20.2 still writes the content as JSON text
    expect(systemChatPacketId(minecraftData("1.20.2") as never)).toBeUndefined();
    expect(systemChatPacketId({})).toBeUndefined();
  });
});
