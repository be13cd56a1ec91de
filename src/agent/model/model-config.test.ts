import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ScriptedModelServer } from "../../../test/support/scripted-model-server.js";
import { MemoryLogger } from "../../util/logger.js";
import { AgentException } from "../agent-exception.js";
import { DEFAULT_MODEL_SETTINGS, ModelConfig } from "./model-config.js";
import { ModelGateway } from "./model-gateway.js";

describe("ModelConfig", () => {
  let folder: string;
  let server: ScriptedModelServer;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), "system-model-config-"));
    server = await ScriptedModelServer.start();
  });
  afterEach(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("is not configured without a base URL and a model, and writes the defaults for admins", async () => {
    const path = join(folder, "config/system/model.json");
    const config = new ModelConfig({ path, logger: new MemoryLogger(), environment: {} });
    await config.reload();
    expect(config.configured()).toBe(false);
    expect(config.client()).toBeUndefined();
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual(DEFAULT_MODEL_SETTINGS);
  });

  it("environment variables override the file", async () => {
    const path = join(folder, "model.json");
    await writeFile(
      path,
      JSON.stringify({ baseUrl: "http://file.invalid/v1", model: "file-model", apiKey: "k1" }),
    );
    const config = new ModelConfig({
      path,
      logger: new MemoryLogger(),
      environment: {
        SYSTEM_MODEL_BASE_URL: server.baseUrl,
        SYSTEM_MODEL: "env-model",
        SYSTEM_MODEL_API_KEY: " ",
      },
    });
    await config.reload();
    expect(config.effective()).toMatchObject({ baseUrl: server.baseUrl, model: "env-model", apiKey: "k1" });
    expect(config.effective().concurrency).toBe(DEFAULT_MODEL_SETTINGS.concurrency);
    expect(config.configured()).toBe(true);
  });

  it("rejects an invalid file and keeps the previous settings", async () => {
    const path = join(folder, "model.json");
    await writeFile(path, JSON.stringify({ baseUrl: "ftp://x", model: "m" }));
    const logger = new MemoryLogger();
    const config = new ModelConfig({ path, logger, environment: {} });
    expect(await config.reload()).toBe(false);
    expect(config.configured()).toBe(false);
    expect(logger.has("model.json")).toBe(true);
  });

  it("a bound gateway follows reloads: endpoint, headers and limits", async () => {
    const path = join(folder, "model.json");
    const config = new ModelConfig({ path, logger: new MemoryLogger(), environment: {} });
    await config.reload();
    const gateway = new ModelGateway({ client: undefined });
    config.bind(gateway);
    expect(gateway.available).toBe(false);
    await writeFile(
      path,
      JSON.stringify({
        baseUrl: server.baseUrl,
        model: "configured-model",
        apiKey: "secret",
        headers: { "x-route": "blue" },
        dailyCalls: 1,
      }),
    );
    await config.reload();
    expect(gateway.available).toBe(true);
    server.script({ text: "hello", usage: { promptTokens: 1, completionTokens: 1 } });
    const request = {
      system: "s",
      user: {},
      maxOutputTokens: 8,
      timeoutMillis: 5_000,
      signal: new AbortController().signal,
    };
    const meta = { playerId: "alice", workflow: "w", deadline: Date.now() + 10_000 };
    expect((await gateway.call(request, meta)).text).toBe("hello");
    expect(server.requests[0]?.body.model).toBe("configured-model");
    expect(server.requests[0]?.headers["x-route"]).toBe("blue");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer secret");
    const second = await gateway.call(request, meta).catch((error: unknown) => AgentException.failure(error));
    expect(second).toMatchObject({ code: "QUOTA_EXCEEDED" });
  });
});
