import { describe, expect, it } from "vitest";
import { isTerminal, isUnfinished, STATE_CODEC, STATES, State } from "./state.js";

describe("State", () => {
  it("splits unfinished recovery markers from terminal states", () => {
    expect(STATES.filter(isUnfinished)).toEqual([State.QUEUED, State.RUNNING, State.WAITING]);
    expect(STATES.filter(isTerminal)).toEqual([
      State.SUCCEEDED,
      State.FAILED,
      State.PARTIALLY_SUCCEEDED,
      State.DONE,
    ]);
  });

  it("holds UNCONFIRMED apart: never resumed as unfinished work, never evicted as terminal", () => {
    expect(isUnfinished(State.UNCONFIRMED)).toBe(false);
    expect(isTerminal(State.UNCONFIRMED)).toBe(false);
    expect(STATE_CODEC.decode("UNCONFIRMED")).toEqual({ success: true, value: "UNCONFIRMED" });
  });

  it("codec refuses an explicitly invalid state instead of treating it as new work", () => {
    expect(STATE_CODEC.decode("DONE")).toEqual({ success: true, value: "DONE" });
    expect(STATE_CODEC.decode("PAUSED").success).toBe(false);
    expect(STATE_CODEC.decode("queued").success).toBe(false);
    expect(STATE_CODEC.decode(undefined).success).toBe(false);
  });
});
