import { describe, expect, it } from "vitest";
import { isSlashLine, slashLine, systemLine } from "./typed-line.js";

const known = new Set(["item", "help", "reason", "mode"]);
const isCommand = (head: string): boolean => known.has(head);

describe("typed lines", () => {
  it("reads the text after /system as game chat does: a click, a known head made explicit, else plain text", () => {
    expect(systemLine("card c1 2", isCommand)).toEqual({ kind: "click", ref: "c1", index: "2" });
    expect(systemLine("ITEM Diamond", isCommand)).toEqual({ kind: "text", text: "/system ITEM Diamond" });
    expect(systemLine("how do I find diamonds", isCommand)).toEqual({
      kind: "text",
      text: "how do I find diamonds",
    });
    expect(systemLine("  ", isCommand)).toEqual({ kind: "text", text: "" });
  });

  it("keeps every other slash line explicit, so an unknown head is never routed", () => {
    expect(slashLine("/itme diamond", isCommand)).toEqual({ kind: "text", text: "/itme diamond" });
    expect(slashLine("/reason why", isCommand)).toEqual({ kind: "text", text: "/reason why" });
    expect(slashLine("/system itme diamond", isCommand)).toEqual({ kind: "text", text: "itme diamond" });
    expect(slashLine("／ＳＹＳＴＥＭ item stone", isCommand)).toEqual({
      kind: "text",
      text: "/system item stone",
    });
    expect(slashLine("/system", isCommand)).toEqual({ kind: "text", text: "" });
    expect(slashLine("/? mode", isCommand)).toEqual({ kind: "text", text: "/help mode" });
    expect(isSlashLine(" ／item")).toBe(true);
    expect(isSlashLine("item /x")).toBe(false);
  });
});
