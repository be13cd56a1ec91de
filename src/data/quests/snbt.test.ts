import { describe, expect, it } from "vitest";
import { parseSnbt, SnbtError } from "./snbt.js";

describe("parseSnbt", () => {
  it("reads FTB Quests SNBT: entries without commas, typed arrays with suffixed elements, longs as bigint", () => {
    const value = parseSnbt(
      '{\r\n\tid: "0EC79B000B04FFF1"\r\n\ttable_id: 143946665591306613L\r\n\tsize: 2.0d\r\n\tflags: [L;9223372036854775807L, -1L]\r\n\tbytes: [B;1b,0b]\r\n\tints: [I;\n\t\t1\n\t\t2\n\t]\r\n\toptional: true\r\n\tcount: 1b\r\n\tdesc: ["a", "b"]\r\n}',
    );
    expect(value).toEqual({
      id: "0EC79B000B04FFF1",
      table_id: 143946665591306613n,
      size: 2,
      flags: [9223372036854775807n, -1n],
      bytes: [1, 0],
      ints: [1, 2],
      optional: true,
      count: 1,
      desc: ["a", "b"],
    });
  });

  it("reads commas, quoted keys, escapes, bare strings and the empty bare key real packs contain", () => {
    expect(parseSnbt('{ "a b": \'it\\\'s\', c: hello, : "BOOLEAN", d: "\\u00e9\\n", e: "\\&e" }')).toEqual({
      "a b": "it's",
      c: "hello",
      "": "BOOLEAN",
      d: "é\n",
      e: "\\&e",
    });
  });

  it("reads bare dashed-UUID keys as FTB Teams writes its ranks", () => {
    expect(
      parseSnbt(
        '{\n\tranks: {\n\t\t950ba3d2-ae76-4777-97aa-76bb7d3b7772: "officer"\n\t\t12345678-0000-4777-97aa-000000000001: "owner"\n\t}\n}',
      ),
    ).toEqual({
      ranks: {
        "950ba3d2-ae76-4777-97aa-76bb7d3b7772": "officer",
        "12345678-0000-4777-97aa-000000000001": "owner",
      },
    });
  });

  it("names the line and column of an error", () => {
    try {
      parseSnbt('{\n\tid: "A"\n\tquests: [\n\t\t{ title: "x" \n');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SnbtError);
      // an unclosed compound is reported where it opens
      expect((error as SnbtError).line).toBe(4);
    }
    expect(() => parseSnbt("{\n a: [L; 1.5L]\n}")).toThrow(/line 2/);
    expect(() => parseSnbt("{ a 1 }")).toThrow(/expected ':'/);
  });
});
