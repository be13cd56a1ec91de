import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeCommand } from "../../src/assistant/route-cli.js";
import { joinPlayer, type Player, type ShippedServer, startShipped, tempFolder } from "./system-support.js";

const HELLO = fileURLToPath(new URL("../fixtures/extensions/hello/index.ts", import.meta.url));
/** Reuses the server's own `reload` and `mode` beside its own `tidy`; its namespace sorts before `system`. */
const ADMIN_ALIASES = fileURLToPath(
  new URL("../fixtures/extensions/admin-aliases/index.ts", import.meta.url),
);

/** An extension listed in `config/system/extensions.json` is loaded by the shipped server, no code edited. */
describe("extensions loaded from extensions.json", () => {
  let server: ShippedServer;
  let alex: Player;
  let admin: Player;

  beforeAll(async () => {
    server = await startShipped({
      ops: ["Admin"],
      files: {
        "config/system/extensions.json": JSON.stringify({ extensions: [HELLO, ADMIN_ALIASES] }),
      },
    });
    alex = await joinPlayer(server.port, "Alex");
    admin = await joinPlayer(server.port, "Admin");
  }, 120_000);

  afterAll(async () => {
    alex?.quit();
    admin?.quit();
    await server?.close();
  });

  it("answers in game with the service its context event provided and its data pack's config", async () => {
    expect(server.logger.has(`extensions loaded: ${HELLO}`)).toBe(true);
    const reply = await alex.say("/system hello", (m) => m.text.includes("Hello from an extension"));
    expect(reply.text).toContain("(hello extension)");
    const help = await alex.say("/system help", (m) => m.text.startsWith("What you can do now"));
    expect(help.text).toContain("/system hello");
  });

  it("keeps the server's own reload and mode when an extension reuses them: the extension loses those aliases, logged", async () => {
    for (const alias of ["reload", "mode"])
      expect(
        server.logger.has(
          `feature admintools:tidy: command alias "${alias}" of admintools:tidy is the server's own`,
        ),
      ).toBe(true);
    // the core feature is installed and its commands run as ever
    const reload = await admin.say("/system reload", (m) => /^Reloaded/.test(m.text));
    expect(reload.text).not.toContain("Tidied");
    const mode = await alex.say("/system mode", (m) => m.text.startsWith("Your mode"));
    expect(mode.text).toContain("routing");
    expect(mode.text).not.toContain("Tidied");
    // the extension keeps its own alias
    const tidy = await alex.say("/system tidy", (m) => m.text.includes("Tidied"));
    expect(tidy.text).toBe("Tidied up (admin-aliases extension).");
  });

  it("is loaded by npx system route --data-dir too", async () => {
    let out = "";
    const stream = new (await import("node:stream")).PassThrough();
    stream.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
    });
    const code = await routeCommand(["/system hello", "--data-dir", server.folder], {
      out: stream,
      err: stream,
    });
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ path: "command", moduleId: "hello:greet" });
  });

  it("refuses to start, naming the entry, when an extension cannot be loaded", async () => {
    const folder = tempFolder("system-bad-extension-");
    await expect(
      startShipped({
        folder,
        files: { "config/system/extensions.json": JSON.stringify({ extensions: ["./missing-extension"] }) },
      }),
    ).rejects.toThrow(/extension "\.\/missing-extension" in .*extensions\.json: .*does not exist/);
    await expect(
      startShipped({
        folder,
        files: { "config/system/extensions.json": JSON.stringify({ extensions: ["no-such-package-xyz"] }) },
      }),
    ).rejects.toThrow(/package no-such-package-xyz is not installed/);
    await expect(
      startShipped({ folder, files: { "config/system/extensions.json": '{"extensions": [' } }),
    ).rejects.toThrow(/extensions\.json/);
  });
});
