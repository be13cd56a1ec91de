import nbt from "prismarine-nbt";
import { describe, expect, it } from "vitest";
import type { Dialog } from "../../shared/dialog.js";
import { varIntBuffer } from "../protocol/minecraft-protocol.js";
import { PacketCodec } from "../protocol/packet-codec.js";
import {
  clearDialogFrame,
  customClickFrame,
  readCustomClick,
  readShowDialog,
  showDialogFrame,
  showsDialogs,
} from "./dialog-packets.js";

const codec = (version: string): PacketCodec => {
  const found = PacketCodec.forVersion(version);
  if (found === undefined) throw new Error(version);
  return found;
};

const NOTICE: Dialog = { type: "notice", title: "System", body: [{ type: "plain_message", contents: "hi" }] };

describe("show_dialog written by hand", () => {
  it("writes the play id, the inline holder marker 0 and the unnamed NBT (1.21.8: 0x85)", () => {
    const frame = showDialogFrame(codec("1.21.8"), NOTICE);
    expect(frame.subarray(0, 4).toString("hex")).toBe("8501000a");
    const read = readShowDialog(frame);
    expect(read !== undefined && "dialog" in read && nbt.simplify(read.dialog)).toEqual({
      type: "minecraft:notice",
      title: "System",
      body: [{ type: "minecraft:plain_message", contents: "hi" }],
    });
    // minecraft-protocol's own decoder reads the same packet (the bug is only in its writer)
    const decoded = codec("1.21.8").decode("play", "toClient", frame);
    expect((decoded?.params.dialog as { data?: unknown } | undefined)?.data).toBeDefined();
  });

  it("takes its ids from each version's table: 0x8a on 1.21.9, 0x12 in configuration, none before 1.21.6", () => {
    expect(showDialogFrame(codec("1.21.9"), NOTICE).subarray(0, 2).toString("hex")).toBe("8a01");
    expect(showDialogFrame(codec("1.21.8"), NOTICE, "configuration").subarray(0, 2).toString("hex")).toBe(
      "120a",
    );
    expect(clearDialogFrame(codec("1.21.8")).toString("hex")).toBe("8401");
    expect(showsDialogs(codec("1.21.6"))).toBe(true);
    expect(showsDialogs(codec("1.21.4"))).toBe(false);
    expect(() => showDialogFrame(codec("1.21.4"), NOTICE)).toThrow(/no play show_dialog/);
  });

  it("writes inputs, item bodies and actions in the client's field names, booleans as bytes", () => {
    const dialog: Dialog = {
      type: "multi_action",
      title: { text: "System", color: "gold" },
      externalTitle: "Ask System",
      pause: false,
      afterAction: "wait_for_response",
      body: [{ type: "item", item: "minecraft:diamond", description: "Diamond" }],
      inputs: [
        { type: "text", key: "text", label: "Ask", maxLength: 1000, multiline: { maxLines: 6, height: 80 } },
        {
          type: "single_option",
          key: "mode",
          label: "Mode",
          options: [{ id: "ask", initial: true }, { id: "simple" }],
        },
        { type: "boolean", key: "speech", label: "Speech", initial: true },
      ],
      actions: [
        { label: "Send", action: { type: "dynamic/custom", id: "system:ask", additions: { window: "3" } } },
        { label: "History", action: { type: "custom", id: "system:history", payload: { window: "3" } } },
      ],
      columns: 2,
    };
    const read = readShowDialog(showDialogFrame(codec("1.21.8"), dialog));
    expect(read !== undefined && "dialog" in read && nbt.simplify(read.dialog)).toEqual({
      type: "minecraft:multi_action",
      title: { text: "System", color: "gold" },
      external_title: "Ask System",
      pause: 0,
      after_action: "wait_for_response",
      body: [
        {
          type: "minecraft:item",
          item: { id: "minecraft:diamond", count: 1 },
          description: { contents: "Diamond" },
        },
      ],
      inputs: [
        {
          type: "minecraft:text",
          key: "text",
          label: "Ask",
          max_length: 1000,
          multiline: { max_lines: 6, height: 80 },
        },
        {
          type: "minecraft:single_option",
          key: "mode",
          label: "Mode",
          options: [{ id: "ask", initial: 1 }, { id: "simple" }],
        },
        { type: "minecraft:boolean", key: "speech", label: "Speech", initial: 1 },
      ],
      actions: [
        {
          label: "Send",
          action: { type: "minecraft:dynamic/custom", id: "system:ask", additions: { window: "3" } },
        },
        {
          label: "History",
          action: { type: "minecraft:custom", id: "system:history", payload: { window: "3" } },
        },
      ],
      columns: 2,
    });
  });

  it("reads a registry holder (id + 1) as the backend may send it", () => {
    const frame = Buffer.concat([varIntBuffer(0x85), varIntBuffer(3)]);
    expect(readShowDialog(frame)).toEqual({ registryId: 2 });
  });
});

describe("custom_click_action read by hand", () => {
  const v1218 = codec("1.21.8");

  it("reads a 1,000-character text input that minecraft-protocol decodes wrongly", () => {
    const text = "a".repeat(1000);
    const frame = customClickFrame(v1218, "system:ask", nbt.comp({ text: nbt.string(text) }) as nbt.Compound);
    // id 0x41, "system:ask", then the payload's length as a VarInt (1,000 + 10 bytes: two VarInt bytes)
    expect(frame.subarray(0, 12).toString("hex")).toBe(`410a${Buffer.from("system:ask").toString("hex")}`);
    const nbtLength = frame.length - 14;
    expect(frame.subarray(12, 14).toString("hex")).toBe(varIntBuffer(nbtLength).toString("hex"));
    const click = readCustomClick(frame);
    expect(click?.id).toBe("system:ask");
    expect(nbt.simplify(click?.payload as nbt.Compound)).toEqual({ text });
    // the library's description (an optional NBT, no length) does not read this packet whole
    const library = v1218.decode("play", "toServer", frame);
    expect((library?.params.nbt as { value?: unknown } | undefined)?.value).not.toEqual(
      (nbt.comp({ text: nbt.string(text) }) as nbt.Compound).value,
    );
  });

  it("reads an empty payload (a lone TAG_End) as none", () => {
    const click = readCustomClick(customClickFrame(v1218, "system:open", undefined));
    expect(click).toEqual({ id: "system:open", payload: undefined, payloadBytes: 1 });
  });

  it("refuses a payload over 65,536 bytes, a frame cut short or with bytes left over, and NBT that does not parse", () => {
    const big = customClickFrame(
      v1218,
      "system:ask",
      nbt.comp({ a: nbt.string("b".repeat(35_000)), b: nbt.string("c".repeat(35_000)) }) as nbt.Compound,
    );
    expect(readCustomClick(big)).toBeUndefined();
    const good = customClickFrame(v1218, "system:ask", nbt.comp({ text: nbt.string("hi") }) as nbt.Compound);
    expect(readCustomClick(good.subarray(0, good.length - 1))).toBeUndefined();
    expect(readCustomClick(Buffer.concat([good, Buffer.of(0)]))).toBeUndefined();
    const name = Buffer.from("system:ask");
    const garbage = Buffer.concat([
      varIntBuffer(0x41),
      varIntBuffer(name.length),
      name,
      varIntBuffer(3),
      Buffer.of(0x0a, 0x63, 0x63),
    ]);
    expect(readCustomClick(garbage)).toBeUndefined();
  });
});
