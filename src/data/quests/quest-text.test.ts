import { describe, expect, it } from "vitest";
import { plainQuestLines, plainQuestText } from "./quest-text.js";

describe("quest text for chat", () => {
  it("removes colour codes, hex colours and keeps escaped ampersands", () => {
    expect(plainQuestText("制作&e一个&r建议的机器")).toBe("制作一个建议的机器");
    expect(plainQuestText("§6Gold§r and &#FF8800orange&r")).toBe("Gold and orange");
    expect(plainQuestText("Salt \\& pepper")).toBe("Salt & pepper");
  });

  it("reads JSON text component lines and drops page breaks and images", () => {
    expect(plainQuestText('{"text":"Hello ","extra":[{"text":"world","color":"gold"}]}')).toBe("Hello world");
    expect(plainQuestText('["",{"text":"A"},{"translate":"item.x","fallback":"B"}]')).toBe("AB");
    expect(
      plainQuestLines(["One", "{@pagebreak}", "{image:ftbquests:x.png width:50}", "", "", "Two", ""]),
    ).toEqual(["One", "", "Two"]);
  });
});
