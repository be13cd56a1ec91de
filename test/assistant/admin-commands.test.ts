import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import { ADMIN, replyText, STEVE, startAssistant, type TestAssistant } from "./assistant-support.js";

const CLARIFY = JSON.stringify({ capabilityId: "clarify" });

/** The usage argument of a mistyped command's failure. */
const usageOf = (reply: { result: { failure?: { key: string; args: readonly unknown[] } | undefined } }) => {
  expect(reply.result.failure?.key).toBe("system.command.usage");
  return reply.result.failure?.args[0];
};

describe("admin commands explain themselves", () => {
  let model: ScriptedModelServer;
  const opened: TestAssistant[] = [];
  const open = async (): Promise<TestAssistant> => {
    const assistant = await startAssistant({ modelBaseUrl: model.baseUrl });
    opened.push(assistant);
    return assistant;
  };

  beforeEach(async () => {
    model = await ScriptedModelServer.start();
  });
  afterEach(async () => {
    for (const assistant of opened.splice(0)) await assistant.server.close();
    await model.close();
  });

  it("answers a mistyped command with the whole syntax of every form", async () => {
    const { server } = await open();
    expect(usageOf(await server.handle(ADMIN, "/system knowledge add"))).toBe(
      "/system knowledge add <title> | <body>; /system knowledge remove <id>",
    );
    expect(usageOf(await server.handle(ADMIN, "/system grant"))).toBe("/system grant <player> [feature]");
    expect(usageOf(await server.handle(ADMIN, "/system settings history maybe"))).toBe(
      "/system settings; /system settings external|history|speech on|off",
    );
    expect(usageOf(await server.handle(ADMIN, "/system mode default"))).toBe(
      "/system mode; /system mode allow <modes>; /system mode ask|full|routing|simple [player]; /system mode default ask|full|routing|simple",
    );
    expect(usageOf(await server.handle(ADMIN, "/system deliveries redeliver"))).toBe(
      "/system deliveries [player]; /system deliveries done|redeliver|已处理|补发 <ref>",
    );
  });

  it("says that a named player never joined, for every admin command that names one", async () => {
    const { server } = await open();
    for (const line of [
      "/system grant Nobody",
      "/system revoke Nobody",
      "/system reset Nobody",
      "/system usage Nobody",
      "/system mode full Nobody",
    ]) {
      const reply = await server.handle(ADMIN, line);
      expect(reply.result.failure, line).toMatchObject({
        code: "NOT_FOUND",
        key: "system.admin.unknown_player",
        args: ["Nobody"],
      });
      expect(replyText(reply), line).toContain("No player named Nobody has joined this server.");
    }
  });

  it("an admin revoking themselves gets a true answer, and the revocation happens after it", async () => {
    const { server } = await open();
    const generation = server.infrastructure.generations.generation(ADMIN.uuid);
    const reply = await server.handle(ADMIN, "/system revoke Admin confirm");
    expect(reply.result.isSuccess()).toBe(true);
    expect(replyText(reply)).toContain(
      "AI access revoked for you (Admin). Your player file and caches are deleted once this reply is sent (usage statistics kept).",
    );
    expect(server.permissions.snapshot(ADMIN.uuid).ai).toBe(false);
    await expect
      .poll(() => server.infrastructure.generations.generation(ADMIN.uuid), { timeout: 5_000 })
      .toBeGreaterThan(generation);
    // the admin's slot was freed: the next command runs instead of being refused as busy
    expect((await server.handle(ADMIN, "/system usage")).result.isSuccess()).toBe(true);
  });

  it("revoking another player says whether their running request was stopped", async () => {
    const { server } = await open();
    // nothing running: the plain answer
    expect(replyText(await server.handle(ADMIN, "/system revoke Alex confirm"))).toContain(
      '"AI access revoked for Alex; their player file and caches are deleted (usage statistics kept)."',
    );
    model.script({ text: CLARIFY, delayMillis: 20_000 });
    const before = model.requests.length;
    const running = server.handle(STEVE, "please tell me a story about the moon");
    await model.waitForRequests(before + 1);
    const reply = await server.handle(ADMIN, "/system revoke Steve confirm");
    expect(replyText(reply)).toContain(
      "AI access revoked for Steve; their running request was stopped and their player file and caches are deleted",
    );
    expect((await running).result.failure?.code).toBe("CANCELLED");
  });
});
