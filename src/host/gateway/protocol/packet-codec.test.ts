import { describe, expect, it } from "vitest";
import { cardComponent } from "../../shared/card-component.js";
import { systemChatBytes } from "../../shared/chat-nbt.js";
import { chatDialect, chatPacket } from "../../shared/chat-packets.js";
import { PacketCodec } from "./packet-codec.js";

describe("PacketCodec.systemChatId", () => {
  it("names system_chat where its content is NBT, and the bytes written for it are the encoder's", () => {
    const codec = PacketCodec.forVersion("1.21.4")!;
    expect(codec.systemChatId()).toBe(codec.idOf("play", "toClient", "system_chat"));
    const dialect = chatDialect((feature) => codec.supports(feature), codec.protocolVersion);
    const card = cardComponent({
      title: "Diamond",
      lines: ["ID: minecraft:diamond"],
      buttons: [{ label: "Sources", ref: "c1@0", action: "0" }],
    });
    const packet = chatPacket(dialect, card);
    expect(systemChatBytes(codec.systemChatId()!, card, dialect, false)?.toString("hex")).toBe(
      codec.encode("play", "toClient", packet.name, packet.params).toString("hex"),
    );
    // 1.20.1 writes chat as JSON text: no bytes of its own
    expect(PacketCodec.forVersion("1.20.1")!.systemChatId()).toBeUndefined();
  });
});
