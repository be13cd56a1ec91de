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

  it("codec refuses an explicitly invalid state instead of treating it as new work", () => {
    expect(STATE_CODEC.decode("DONE")).toEqual({ success: true, value: "DONE" });
    expect(STATE_CODEC.decode("PAUSED").success).toBe(false);
    expect(STATE_CODEC.decode("queued").success).toBe(false);
    expect(STATE_CODEC.decode(undefined).success).toBe(false);
  });
});
