import { createRequire } from "node:module";
import nbt from "prismarine-nbt";
import { describe, expect, it } from "vitest";
import { cardButtonCommand, cardComponent } from "./card-component.js";
import { chatDialect, chatPacket } from "./chat-packets.js";
import { roundTrip } from "./wire.test-support.js";

const minecraftData = createRequire(import.meta.url)("minecraft-data") as (version: string) => {
  supportFeature(feature: string): boolean;
  version: { version: number };
};

const dialectOf = (version: string) => {
  const data = minecraftData(version);
  return chatDialect((feature) => data.supportFeature(feature), data.version.version);
};

const card = cardComponent({
  title: "Diamond",
  lines: ["Sources: diamond_ore"],
  buttons: [{ label: "Recipes", ref: "c42", action: "recipes", hover: "Show recipes" }],
});

type Node = Record<string, unknown> & { extra?: Node[] };
const findClick = (node: Node): { action: string; value: string } | undefined => {
  const click = node.clickEvent as { action: string; value: string } | undefined;
  return click ?? node.extra?.map(findClick).find((found) => found !== undefined);
};
const findHover = (node: Node): Node | undefined => {
  const hover = node.hoverEvent as Node | undefined;
  return hover ?? node.extra?.map(findHover).find((found) => found !== undefined);
};

describe("chatPacket", () => {
  it("writes NBT system_chat on 1.21.4 with the click event and hover text intact", () => {
    const packet = chatPacket(dialectOf("1.21.4"), card);
    expect(packet.name).toBe("system_chat");
    const decoded = roundTrip("1.21.4", packet.name, packet.params);
    const content = nbt.simplify(decoded.params.content as nbt.Compound) as Node;
    expect(findClick(content)).toEqual({ action: "run_command", value: cardButtonCommand("c42", "recipes") });
    expect(findHover(content)).toMatchObject({ action: "show_text", contents: { text: "Show recipes" } });
    expect(decoded.params.isActionBar).toBe(false);
  });

  it("writes JSON system_chat on 1.20.2 and 1.19", () => {
    for (const version of ["1.20.2", "1.19"]) {
      const packet = chatPacket(dialectOf(version), card);
      const decoded = roundTrip(version, packet.name, packet.params);
      expect(decoded.name).toBe("system_chat");
      const content = JSON.parse(decoded.params.content as string) as Node;
      expect(findClick(content)?.value).toBe("/system card c42 recipes");
      expect(findHover(content)).toHaveProperty("contents");
    }
  });

  it("writes chat with position 1 on 1.18.2 and legacy hover values on 1.12.2", () => {
    const modern = roundTrip("1.18.2", "chat", chatPacket(dialectOf("1.18.2"), card).params);
    expect(modern.params.position).toBe(1);
    expect(findClick(JSON.parse(modern.params.message as string) as Node)?.value).toBe(
      "/system card c42 recipes",
    );
    const legacy = chatPacket(dialectOf("1.12.2"), card);
    const decoded = roundTrip("1.12.2", legacy.name, legacy.params);
    expect(decoded.params.position).toBe(1);
    expect(findHover(JSON.parse(decoded.params.message as string) as Node)).toHaveProperty("value");
  });
});

describe("chat cards for 1.21.5+ clients", () => {
  it("writes click_event with `command` and hover_event with `value`, which 1.21.5+ clients read (clickEvent they ignore)", () => {
    const packet = chatPacket(dialectOf("1.21.8"), card);
    const simple = JSON.stringify(nbt.simplify(packet.params.content as nbt.Compound));
    expect(simple).toContain(
      `"click_event":{"action":"run_command","command":"${cardButtonCommand("c42", "recipes")}"}`,
    );
    expect(simple).toContain('"hover_event":{"action":"show_text","value":{"text":"Show recipes"');
    expect(simple).not.toContain("clickEvent");
    expect(
      JSON.stringify(nbt.simplify(chatPacket(dialectOf("1.21.4"), card).params.content as nbt.Compound)),
    ).toContain('"clickEvent"');
  });
});
