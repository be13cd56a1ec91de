import { describe, expect, it } from "vitest";
import { literal } from "../text.js";
import { CardBuilder } from "./card-builder.js";
import { ClientCards } from "./client-cards.js";
import { DEFAULT_MAX_SERVER_CARDS, ServerCards } from "./server-cards.js";

const page = (next: number) =>
  CardBuilder.of("system.card.message", literal(`page ${next - 1}`))
    .button("system.card.message", "system:item_query", "minecraft:diamond", String(next))
    .build();

describe("ServerCards", () => {
  it("honours a click only on the current page and one of its own buttons", () => {
    const server = new ServerCards();
    const shown = server.show(page(1));
    expect(shown.op).toBe("SHOW");
    const click = { card: shown.ref, action: "system:item_query", args: ["minecraft:diamond", "1"] };
    expect(server.resolve(click)).toEqual({
      success: true,
      value: { action: click.action, args: click.args },
    });
    expect(server.resolve({ ...click, action: "system:grant" })).toEqual({
      success: false,
      error: "no such button on this card",
    });
    expect(server.resolve({ ...click, args: ["minecraft:bedrock", "1"] }).success).toBe(false);

    const replaced = server.replace(shown.ref.id, page(2));
    expect(replaced).toMatchObject({ op: "REPLACE", ref: { id: shown.ref.id, version: 1 } });
    expect(server.resolve(click)).toEqual({ success: false, error: "the card has a newer page" });
    expect(
      server.resolve({ card: replaced!.ref, action: "system:item_query", args: ["minecraft:diamond", "2"] })
        .success,
    ).toBe(true);
  });

  it("resolves a button by its position on the current page only", () => {
    const server = new ServerCards();
    const shown = server.show(page(1));
    expect(server.button(shown.ref, 0)).toEqual({
      success: true,
      value: { action: "system:item_query", args: ["minecraft:diamond", "1"] },
    });
    expect(server.button(shown.ref, 1).success).toBe(false);
    expect(server.button(shown.ref, -1).success).toBe(false);
    const replaced = server.replace(shown.ref.id, page(2))!;
    expect(server.button(shown.ref, 0)).toEqual({ success: false, error: "the card has a newer page" });
    expect(server.button(replaced.ref, 0).success).toBe(true);
  });

  it("refuses unknown, removed and forgotten cards", () => {
    const server = new ServerCards(1);
    const first = server.show(page(1));
    const second = server.show(page(1));
    const click = { action: "system:item_query", args: ["minecraft:diamond", "1"] };
    expect(server.resolve({ ...click, card: first.ref })).toEqual({ success: false, error: "unknown card" });
    expect(server.replace(first.ref.id, page(2))).toBeUndefined();
    expect(server.remove(second.ref.id)).toEqual({ op: "REMOVE", ref: second.ref });
    expect(server.resolve({ ...click, card: second.ref }).success).toBe(false);
  });

  it("keeps only what a click runs, not the labels and hover texts of the buttons", () => {
    const server = new ServerCards();
    const view = CardBuilder.of("system.card.message", literal("shop"))
      .button("system.card.message", "system:shop_buy", "bread", "1")
      .build();
    const withHover = {
      ...view,
      buttons: view.buttons.map((button) => ({
        ...button,
        hoverKey: "system.card.message",
        hoverArgs: ["x"],
      })),
    };
    const shown = server.show(withHover);
    const pressed = server.button(shown.ref, 0);
    expect(pressed.success && Object.keys(pressed.value).sort()).toEqual(["action", "args"]);
  });

  it(`remembers the ${DEFAULT_MAX_SERVER_CARDS} newest cards of a player by default`, () => {
    expect(DEFAULT_MAX_SERVER_CARDS).toBe(64);
    const server = new ServerCards();
    const shown = Array.from({ length: DEFAULT_MAX_SERVER_CARDS + 1 }, () => server.show(page(1)));
    expect(server.button(shown[0]!.ref, 0)).toEqual({ success: false, error: "unknown card" });
    expect(server.button(shown[1]!.ref, 0).success).toBe(true);
    expect(server.button(shown.at(-1)!.ref, 0).success).toBe(true);
  });

  it("produces updates a ClientCards applies in order", () => {
    const server = new ServerCards();
    const client = new ClientCards();
    const shown = server.show(page(1));
    const replaced = server.replace(shown.ref.id, page(2))!;
    expect(client.apply(replaced)).toBe("shown");
    expect(client.apply(shown)).toBe("stale");
    expect(client.apply(server.remove(shown.ref.id)!)).toBe("removed");
  });
});
