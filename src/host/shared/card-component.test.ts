import { describe, expect, it } from "vitest";
import { cardComponent } from "./card-component.js";

describe("cardComponent", () => {
  it("makes web addresses in card text links that open the page, the rest plain text", () => {
    const component = cardComponent({
      title: "Your web panel code: ABCD2345",
      lines: ['Open http://127.0.0.1:8765. and enter it under "Binding code".'],
      buttons: [],
    });
    const body = component.extra?.slice(1) ?? [];
    expect(body.map((part) => part.text)).toEqual([
      "\nOpen ",
      "http://127.0.0.1:8765",
      '. and enter it under "Binding code".',
    ]);
    expect(body[1]?.clickEvent).toEqual({ action: "open_url", value: "http://127.0.0.1:8765" });
    expect(body[0]?.clickEvent).toBeUndefined();
  });

  it("keeps a body without addresses as one text node", () => {
    const component = cardComponent({ title: "t", lines: ["a", "b"], buttons: [] });
    expect(component.extra?.length).toBe(2);
    expect(component.extra?.[1]?.text).toBe("\na\nb");
  });
});
