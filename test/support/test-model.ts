import { ModelGateway, type ModelGatewayOptions } from "../../src/agent/model/model-gateway.js";
import { OpenAiModelClient } from "../../src/agent/model/openai-model-client.js";
import type { ScriptedModelServer } from "./scripted-model-server.js";

/** The model name tests send; the scripted server echoes it back. */
export const TEST_MODEL = "scripted-test-model";

/** The model environment `npm start` reads (`SYSTEM_MODEL_*`), pointed at a scripted server. */
export const modelEnvironment = (model: ScriptedModelServer): Record<string, string> => ({
  SYSTEM_MODEL_BASE_URL: model.baseUrl,
  SYSTEM_MODEL: TEST_MODEL,
  SYSTEM_MODEL_API_KEY: "test-key",
});

/** An OpenAI-protocol client pointed at a scripted server. */
export const testClient = (server: ScriptedModelServer): OpenAiModelClient =>
  new OpenAiModelClient({
    baseUrl: server.baseUrl,
    apiKey: "test-key",
    model: TEST_MODEL,
    headers: { "x-system-test": "1" },
  });

/**
 * A real ModelGateway over the real OpenAI client and a scripted server. Defaults: concurrency 4, no daily
 * quota, usage kept in memory; any option may be overridden.
 */
export function testGateway(
  server: ScriptedModelServer,
  options: Partial<ModelGatewayOptions> = {},
): ModelGateway {
  return new ModelGateway({ client: testClient(server), concurrency: 4, ...options });
}
