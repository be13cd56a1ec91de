import nbt from "prismarine-nbt";
import { describe, expect, it } from "vitest";
import { PacketCodec } from "../protocol/packet-codec.js";
import { appendLauncherEntry, pointDialogTags } from "./dialog-registry-patch.js";

const codec = PacketCodec.forVersion("1.21.8") as PacketCodec;
const launcher = nbt.comp({
  type: nbt.string("minecraft:notice"),
  title: nbt.string("System"),
}) as nbt.Compound;

describe("the configuration patch", () => {
  it("appends the launcher after the backend's dialog entries, which stay byte for byte", () => {
    const value = nbt.comp({ type: nbt.string("minecraft:notice"), title: nbt.string("Rules") });
    const frame = codec.encode("configuration", "toClient", "registry_data", {
      id: "minecraft:dialog",
      entries: [{ key: "minecraft:server_links" }, { key: "myplugin:rules", value }],
    });
    const patched = appendLauncherEntry(frame, launcher);
    expect(patched?.index).toBe(2);
    const entries = codec.decode("configuration", "toClient", patched?.frame as Buffer)?.params.entries as {
      key: string;
    }[];
    expect(entries.map((entry) => entry.key)).toEqual([
      "minecraft:server_links",
      "myplugin:rules",
      "system:assistant",
    ]);
    // the backend's entries are the same bytes, after the count
    const tail = frame.subarray(frame.indexOf(Buffer.from("minecraft:dialog")) + 17);
    expect((patched?.frame ?? Buffer.alloc(0)).includes(tail)).toBe(true);
  });

  it("leaves any other registry alone", () => {
    const frame = codec.encode("configuration", "toClient", "registry_data", {
      id: "minecraft:dimension_type",
      entries: [{ key: "minecraft:overworld" }],
    });
    expect(appendLauncherEntry(frame, launcher)).toBeUndefined();
  });

  it("adds the launcher to the backend's own tag entries (kept in order) and to tags it lacks", () => {
    const frame = codec.encode("configuration", "toClient", "tags", {
      tags: [
        {
          tagType: "minecraft:dialog",
          tags: [{ tagName: "minecraft:pause_screen_additions", entries: [0] }],
        },
        { tagType: "minecraft:block", tags: [{ tagName: "minecraft:logs", entries: [1, 2] }] },
      ],
    });
    const patched = pointDialogTags(codec, "configuration", frame, 4);
    expect(codec.decode("configuration", "toClient", patched as Buffer)?.params.tags).toEqual([
      {
        tagType: "minecraft:dialog",
        tags: [
          { tagName: "minecraft:pause_screen_additions", entries: [0, 4] },
          { tagName: "minecraft:quick_actions", entries: [4] },
        ],
      },
      { tagType: "minecraft:block", tags: [{ tagName: "minecraft:logs", entries: [1, 2] }] },
    ]);
  });
});
