import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gate, ScriptedModelServer } from "../support/scripted-model-server.js";
import {
  joinPlayer,
  modelEnvironment,
  type Player,
  type ShippedServer,
  startShipped,
} from "./system-support.js";

/** A ReAct reply as the scripted model sends it. */
const reply = (value: unknown): { text: string } => ({ text: JSON.stringify(value) });

/**
 * The shipped server with a model: `/reason` looks something up in the knowledge base (a tool of the knowledge
 * feature), and the admin switches that feature off for the player while the loop waits for its answer. The
 * reasoning feature itself stays on, yet what the switched-off tool returned never reaches the player.
 */
describe("a tool's feature switched off mid-request is honoured before the answer (shipped server)", () => {
  let model: ScriptedModelServer;
  let server: ShippedServer;
  let admin: Player;
  let steve: Player;

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    server = await startShipped({ environment: modelEnvironment(model), ops: ["Admin"] });
    admin = await joinPlayer(server.port, "Admin");
    steve = await joinPlayer(server.port, "Steve");
    await admin.say("/system knowledge add Diamonds | Diamonds are found deep underground, near lava.", (m) =>
      /Knowledge entry #\d+ added/.test(m.text),
    );
  }, 120_000);

  afterAll(async () => {
    admin?.quit();
    steve?.quit();
    await server?.close();
    await model?.close();
  });

  it("refuses the answer built on a tool whose feature was switched off after it returned", async () => {
    const before = model.requests.length;
    const hold = gate();
    model.script(reply({ type: "system:database.query", input: { query: "Diamonds" } }), {
      ...reply({ type: "answer", text: "Near lava, says the knowledge base." }),
      until: hold.until,
    });
    const answer = steve.say("/reason where do I find diamonds", (m) =>
      /not enabled for you|Near lava/.test(m.text),
    );
    // the tool has returned (its observation is in the second call); the answer waits
    await model.waitForRequests(before + 2);
    expect(JSON.stringify(model.requests[before + 1]?.user)).toContain("near lava");
    await admin.say("/system revoke Steve system:knowledge", (m) => /revoke|knowledge/i.test(m.text));
    hold.release();
    const card = await answer;
    expect(card.text).not.toContain("Near lava");
    expect(card.text).toContain("This feature is not enabled for you");
    await admin.say("/system grant Steve system:knowledge", (m) => /grant|knowledge/i.test(m.text));
    // with the feature back, the same request answers
    model.script(
      reply({ type: "system:database.query", input: { query: "Diamonds" } }),
      reply({ type: "answer", text: "Near lava, again." }),
    );
    const again = await steve.say("/reason where do I find diamonds now", (m) =>
      /Near lava, again/.test(m.text),
    );
    expect(again.text).toContain("Near lava, again.");
  });
});
