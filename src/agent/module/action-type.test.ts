import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codec } from "../../util/codec.js";
import { ActionType } from "./action-type.js";

/** A codec that counts how often it decodes. */
const counting = () => {
  const calls = { count: 0 };
  const schema = z.object({ query: z.string() }).transform((value) => {
    calls.count++;
    return value;
  });
  return {
    calls,
    type: ActionType.of("test:query", codec(schema as unknown as z.ZodType<{ query: string }>)),
  };
};

describe("ActionType.decode", () => {
  it("takes the input of an action its codec decoded already (a parsed command) as it is", () => {
    const { calls, type } = counting();
    const decoded = type.codec.decode({ query: "diamond" });
    expect(calls.count).toBe(1);
    const action = type.decoded(decoded.success ? decoded.value : { query: "" });
    expect(type.decode(action)).toEqual({ success: true, value: { query: "diamond" } });
    expect(calls.count).toBe(1);
  });

  it("decodes every other action's input: built by hand, by a route or by another type", () => {
    const { calls, type } = counting();
    expect(type.decode(type.action({ query: "diamond" })).success).toBe(true);
    expect(calls.count).toBe(1);
    // a route's input is data from outside: a bad one is refused
    expect(type.decode(type.action({ query: 7 } as unknown as { query: string })).success).toBe(false);
    // decoded by another type's codec: this type decodes it itself
    const other = counting().type;
    expect(type.decode(other.decoded({ query: "stick" })).success).toBe(true);
    expect(calls.count).toBe(2);
  });
});
