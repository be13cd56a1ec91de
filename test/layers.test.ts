import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const sources = (folder: string): string[] =>
  readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.includes("test-support") ? [path] : [];
  });

describe("layers", () => {
  it("src/agent imports only src/agent and src/util", () => {
    const offenders = sources("src/agent").flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from\s+"([^"]+)"/g)]
        .map((match) => match[1] ?? "")
        .filter((target) => target.startsWith("."))
        .filter((target) => {
          const inside = relative(resolve("src"), resolve(dirname(file), target));
          return !inside.startsWith("agent/") && !inside.startsWith("util/");
        })
        .map((target) => `${file} → ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it("the module contracts never depend on routing (routing builds on them, not the reverse)", () => {
    const offenders = sources("src/agent/module").filter((file) =>
      [...readFileSync(file, "utf8").matchAll(/from\s+"([^"]+)"/g)].some((match) =>
        relative(resolve("src"), resolve(dirname(file), match[1] ?? "")).startsWith("agent/routing/"),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it("src/util imports nothing above it", () => {
    const offenders = sources("src/util").flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from\s+"(\.[^"]+)"/g)]
        .map((match) => match[1] ?? "")
        .filter((target) => !relative(resolve("src"), resolve(dirname(file), target)).startsWith("util/"))
        .map((target) => `${file} → ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it("routing and commands never switch over module ids", () => {
    const offenders = [...sources("src/agent/routing"), ...sources("src/agent/command")].filter((file) =>
      /\bswitch\s*\(/.test(readFileSync(file, "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
