import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import {
  joinPlayer,
  modelEnvironment,
  type Player,
  type ShippedServer,
  startShipped,
  uuidOf,
} from "./system-support.js";

/**
 * The log an admin reads on the shipped server: who joined and left, one line per request naming the player, the
 * start of the text (never all of it), the route, the workflow and the outcome, and the cause of a model failure.
 */
describe("logs an admin can use", () => {
  let model: ScriptedModelServer;
  let server: ShippedServer;
  let alex: Player;
  let alexId: string;

  const linesWith = (fragment: string): string[] =>
    server.logger.lines.filter((line) => line.includes(fragment));

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    server = await startShipped({ environment: modelEnvironment(model) });
    alex = await joinPlayer(server.port, "Alex");
    alexId = uuidOf(server.system, "Alex");
  }, 120_000);

  afterAll(async () => {
    alex?.quit();
    await server?.close();
    await model?.close();
  });

  it("logs a join with the player's name and id", async () => {
    await expect.poll(() => linesWith(`INFO Alex joined (${alexId}, `)).toHaveLength(1);
  });

  it("logs a command with the player, the route, the workflow and the outcome", async () => {
    await alex.say("/system item minecraft:diamond", (m) => m.text.includes("Diamond"));
    await expect
      .poll(() => server.logger.lines.filter((line) => line.startsWith("INFO request ")))
      .toContainEqual(
        expect.stringMatching(
          /^INFO request [0-9a-f-]{36} Alex "item minecraft:d…" command → system:item_query: succeeded$/,
        ),
      );
  });

  it("logs plain text as a short prefix only, and a model that failed with its cause", async () => {
    model.script({ status: 500 });
    await alex.say("/system plorbix the wibbler with the secret tail words", (m) =>
      /model|not sure/i.test(m.text),
    );
    await expect.poll(() => linesWith(' Alex "plorbix the wibb…" ')).toHaveLength(1);
    const request = linesWith(' Alex "plorbix the wibb…" ')[0] ?? "";
    expect(request).toMatch(/model:failed:MODEL_UNAVAILABLE → none: succeeded$/);
    expect(linesWith("model:failed:MODEL_UNAVAILABLE (500; ")).toHaveLength(1);
    expect(server.logger.lines.join("\n")).not.toContain("secret tail");
  });

  it("logs a workflow ended by the model with the cause", async () => {
    for (let reply = 0; reply < 3; reply++) model.script({ status: 503 });
    await alex.say("/reason what should I build next to my house", (m) => /model|AI/i.test(m.text));
    await expect
      .poll(() => linesWith("system:reasoning ended with MODEL_UNAVAILABLE (503; "))
      .toHaveLength(1);
    await expect
      .poll(() => linesWith(' Alex "/reason what sho…" command → system:reasoning: '))
      .toHaveLength(1);
  });

  it("logs a leave", async () => {
    alex.quit();
    await expect.poll(() => linesWith(`INFO Alex left (${alexId})`)).toHaveLength(1);
  });
});
