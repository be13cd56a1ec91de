import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const sources = (folder: string): string[] =>
  readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.includes("test-support") ? [path] : [];
  });

/** The top-level folder of `src` that a relative import of `file` lands in. */
const importsOf = (file: string): { target: string; layer: string }[] =>
  [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)].map((match) => {
    const target = match[1] ?? "";
    const inside = relative(resolve("src"), resolve(dirname(file), target));
    return { target, layer: inside.includes("/") ? (inside.split("/")[0] ?? "") : "" };
  });

/**
 * Which top-level folders each layer may import: util ← agent ← game, data ← module (and speech) ← assistant ←
 * host. Siblings (game and data, module and speech) never import each other.
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  util: ["util"],
  agent: ["agent", "util"],
  game: ["game", "agent", "util"],
  data: ["data", "agent", "util"],
  module: ["module", "game", "data", "agent", "util"],
  speech: ["speech", "game", "data", "agent", "util"],
  assistant: ["assistant", "module", "speech", "game", "data", "agent", "util"],
  host: ["host", "assistant", "module", "speech", "game", "data", "agent", "util"],
};

describe("layers", () => {
  it("every top-level folder of src has a place in the order", () => {
    const folders = readdirSync("src").filter((name) => statSync(join("src", name)).isDirectory());
    expect(folders.filter((folder) => ALLOWED[folder] === undefined)).toEqual([]);
  });

  it("each layer imports only itself and the layers below it", () => {
    const offenders = Object.entries(ALLOWED).flatMap(([layer, allowed]) => {
      try {
        statSync(join("src", layer));
      } catch {
        return [];
      }
      return sources(join("src", layer)).flatMap((file) =>
        importsOf(file)
          .filter((entry) => !allowed.includes(entry.layer))
          .map((entry) => `${file} → ${entry.target}`),
      );
    });
    expect(offenders).toEqual([]);
  });

  it("each host adapter is a folder of src/host that imports no other adapter; they share only src/host/shared", () => {
    const adapters = ["flying-squid", "gateway"];
    const offenders = adapters.flatMap((adapter) =>
      sources(join("src/host", adapter)).flatMap((file) =>
        importsOf(file)
          .map(
            (entry) =>
              relative(resolve("src/host"), resolve(dirname(file), entry.target)).split("/")[0] ?? "",
          )
          .filter((folder) => adapters.includes(folder) && folder !== adapter)
          .map((folder) => `${file} → ${folder}`),
      ),
    );
    const sharedOffenders = sources("src/host/shared").filter((file) =>
      importsOf(file).some((entry) =>
        adapters.includes(
          relative(resolve("src/host"), resolve(dirname(file), entry.target)).split("/")[0] ?? "",
        ),
      ),
    );
    expect([...offenders, ...sharedOffenders]).toEqual([]);
  });

  it("the module contracts never depend on routing (routing builds on them, not the reverse)", () => {
    const offenders = sources("src/agent/module").filter((file) =>
      [...readFileSync(file, "utf8").matchAll(/from\s+"([^"]+)"/g)].some((match) =>
        relative(resolve("src"), resolve(dirname(file), match[1] ?? "")).startsWith("agent/routing/"),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it("src/assistant keeps the assembly only: no game data, game tools or card text helpers", () => {
    const names = sources("src/assistant").map((file) => relative("src/assistant", file));
    expect(names.filter((name) => /^(game-|context-types)/.test(name))).toEqual([]);
  });

  it("routing and commands never switch over module ids", () => {
    const offenders = [...sources("src/agent/routing"), ...sources("src/agent/command")].filter((file) =>
      /\bswitch\s*\(/.test(readFileSync(file, "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
