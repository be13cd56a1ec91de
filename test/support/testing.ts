// Test helpers for extensions (`system/testing`): the scripted model server and the shipped server with bots.
// They need System's dev dependencies (vitest runs them; mineflayer joins the bots).
export {
  joinPlayer,
  modelEnvironment,
  type Player,
  type ShippedServer,
  speak,
  startShipped,
  tempFolder,
  uuidOf,
  waitFor,
} from "../system/system-support.js";
export { type RecordedRequest, ScriptedModelServer, type ScriptedReply } from "./scripted-model-server.js";
export { TEST_MODEL } from "./test-model.js";
