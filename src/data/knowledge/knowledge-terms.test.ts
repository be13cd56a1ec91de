import { describe, expect, it } from "vitest";
import { ftsPhrase, queryTerms, snippetOf } from "./knowledge-terms.js";

describe("queryTerms", () => {
  it("segments Chinese, drops stop words and joins adjacent Chinese words back into one phrase", () => {
    expect(queryTerms("钻石怎么获得")).toEqual(["钻石", "获得"]);
    expect(queryTerms("下界合金")).toEqual(["下界合金"]);
    expect(queryTerms("末影龙 鞘翅")).toEqual(["末影龙", "鞘翅"]);
    expect(queryTerms("How do I get NETHERITE?")).toEqual(["netherite"]);
    expect(queryTerms("怎么")).toEqual(["怎么"]);
    expect(queryTerms("  ?! ")).toEqual([]);
  });

  it("quotes FTS phrases and cuts snippets around the first term", () => {
    expect(ftsPhrase('a "b"')).toBe('"a ""b"""');
    expect(snippetOf(`${"x ".repeat(200)}钻石 here`, ["钻石"], 40)).toMatch(/^….*钻石 here$/);
  });
});
