import { describe, expect, it } from "vitest";
import { validateDialog } from "../dialog.js";
import { cardDialog, launcherDialog, settingsDialog, type WindowCard } from "./window-pages.js";

const text = (key: string, ...args: string[]): string =>
  args.length === 0 ? key : `${key}(${args.join(",")})`;

const quote: WindowCard = {
  title: "Quote: Bread × 2 at 3 each = 6 points.",
  lines: ["Balance 10 → 4 after paying."],
  buttons: [
    { label: "Confirm: pay 6", ref: "p@1", action: "0" },
    { label: "Cancel", ref: "p@1", action: "1" },
  ],
  buttonKeys: ["system.shop.button.confirm", "system.shop.button.cancel"],
  failed: false,
};

describe("window pages", () => {
  it("draws a payment to confirm as a confirmation dialog whose yes and no send the card's clicks", () => {
    const dialog = cardDialog({ text, window: 7, card: quote, isItem: () => false });
    expect(dialog.type).toBe("confirmation");
    if (dialog.type !== "confirmation") return;
    expect(dialog.yes.action).toEqual({
      type: "custom",
      id: "system:card",
      payload: { window: "7", ref: "p@1", index: "0" },
    });
    expect(dialog.no.action).toMatchObject({ payload: { index: "1" } });
    expect(validateDialog(dialog).success).toBe(true);
  });

  it("draws any other card as buttons plus a new request, with the items it names as icons", () => {
    const card: WindowCard = {
      ...quote,
      title: "Diamond (钻石)",
      lines: ["ID: minecraft:diamond · stacks to 64", "made from minecraft:diamond_block"],
      buttonKeys: ["a", "b"],
    };
    const dialog = cardDialog({ text, window: 2, card, isItem: (id) => id === "minecraft:diamond" });
    expect(dialog.type).toBe("multi_action");
    expect(dialog.body?.[0]).toEqual({
      type: "item",
      item: "minecraft:diamond",
      description: "minecraft:diamond",
    });
    if (dialog.type === "multi_action")
      expect(dialog.actions.map((action) => action.label)).toEqual([
        "Confirm: pay 6",
        "Cancel",
        "system.window.new_request",
      ]);
  });

  it("offers the mode only when the player may choose among several; the registered launcher names no window", () => {
    const chooser = launcherDialog({
      text,
      window: 1,
      quests: false,
      modes: { allowed: ["ask", "routing"], current: "ask" },
    });
    expect(chooser.inputs?.map((input) => input.key)).toEqual(["text", "mode"]);
    const registered = launcherDialog({ text, quests: true });
    expect(registered.inputs?.map((input) => input.key)).toEqual(["text"]);
    expect(JSON.stringify(registered)).not.toContain('"window"');
    expect(validateDialog(chooser).success && validateDialog(registered).success).toBe(true);
  });

  it("shows the settings as toggles with the player's values and the game's language", () => {
    const dialog = settingsDialog({
      text,
      window: 3,
      settings: { history: true, external: false, speech: true, language: "zh_cn" },
    });
    expect(dialog.inputs).toMatchObject([
      { key: "history", initial: true },
      { key: "external", initial: false },
      { key: "speech", initial: true },
    ]);
    expect(JSON.stringify(dialog.body)).toContain("system.window.settings.language(zh_cn)");
  });
});
