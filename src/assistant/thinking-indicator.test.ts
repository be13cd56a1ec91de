import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { THINKING_DELAY_MILLIS, ThinkingIndicator } from "./thinking-indicator.js";

describe("ThinkingIndicator", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("says nothing for a model call that answers within the delay", () => {
    let shown = 0;
    const indicator = new ThinkingIndicator(() => shown++);
    indicator.started();
    vi.advanceTimersByTime(THINKING_DELAY_MILLIS - 1);
    indicator.finished();
    vi.advanceTimersByTime(10_000);
    expect(shown).toBe(0);
  });

  it("shows once the delay has passed, repeats while waiting, and never after the request ended", () => {
    let shown = 0;
    const indicator = new ThinkingIndicator(() => shown++);
    indicator.started();
    vi.advanceTimersByTime(THINKING_DELAY_MILLIS);
    expect(shown).toBe(1);
    vi.advanceTimersByTime(2_500);
    expect(shown).toBe(2);
    indicator.close();
    indicator.started();
    vi.advanceTimersByTime(10_000);
    expect(shown).toBe(2);
  });
});
