import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clearCommand, giveCommand } from "./item-commands.js";
import { dataGetEntityCommand } from "./player-commands.js";
import { commandText } from "./rcon-command.js";
import { scoreGetCommand } from "./server-commands.js";

/** Any text, weighted towards what an injection would try, and some valid arguments. */
const argument = fc.oneof(
  fc.string(),
  fc.stringMatching(/^[A-Za-z0-9_ @\n\r\t:;"'{}[\]/\\.#*-]{0,24}$/),
  fc.constantFrom(
    "Steve op Mallory",
    "@a",
    "Steve\nop x",
    "minecraft:bread 64",
    "Steve\u0000",
    "Inventory run x",
  ),
  fc.constantFrom("Steve", "minecraft:bread", "kills", "Inventory"),
);

describe("command arguments", () => {
  it("whatever text fills an argument, a built command keeps exactly its own words", () => {
    let builtCount = 0;
    fc.assert(
      fc.property(argument, argument, (first, second) => {
        const built = [
          [giveCommand({ player: first, item: second, count: 1 }), 4],
          [clearCommand({ player: first, item: second, maxCount: 1 }), 4],
          [dataGetEntityCommand({ player: first, path: second }), 5],
          [scoreGetCommand({ player: first, objective: second }), 5],
        ] as const;
        for (const [result, words] of built) {
          if (!result.success) continue;
          builtCount++;
          const text = commandText(result.value, "namespaced");
          expect(text.split(" ")).toHaveLength(words);
          expect(text).not.toMatch(/[\n\r\t@"'{}\\]/);
          expect(text.includes("\0")).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
    expect(builtCount).toBeGreaterThan(50);
  });
});
