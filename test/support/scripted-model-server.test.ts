import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ScriptedModelServer } from "./scripted-model-server.js";

const post = (server: ScriptedModelServer, body: unknown): Promise<Response> =>
  fetch(`${server.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-probe": "yes" },
    body: JSON.stringify(body),
  });

describe("ScriptedModelServer", () => {
  let server: ScriptedModelServer;
  beforeEach(async () => {
    server = await ScriptedModelServer.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it("answers from the script in order and records each request", async () => {
    server.script(
      { text: "one", reasoning: "r", usage: { promptTokens: 3, completionTokens: 2 } },
      { text: "two" },
    );
    const messages = [
      { role: "system", content: "sys" },
      { role: "user", content: '{"q":1}' },
    ];
    const first = (await (await post(server, { model: "m", messages })).json()) as Record<string, unknown>;
    expect(first).toMatchObject({
      choices: [{ message: { content: "one", reasoning_content: "r" } }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    const second = (await (
      await post(server, { messages: [{ role: "user", content: "plain" }] })
    ).json()) as {
      usage?: unknown;
    };
    expect(second.usage).toBeUndefined();
    expect(server.requests.map((request) => [request.system, request.user])).toEqual([
      ["sys", { q: 1 }],
      ["", "plain"],
    ]);
    expect(server.requests[0]?.headers["x-probe"]).toBe("yes");
    await server.waitForRequests(2);
  });

  it("answers 500 when the script is empty, and serves scripted statuses and raw bodies", async () => {
    server.script({ status: 429 }, { body: "raw!" });
    expect((await post(server, {})).status).toBe(429);
    expect(await (await post(server, {})).text()).toBe("raw!");
    expect((await post(server, {})).status).toBe(500);
  });
});
