import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { AgentResult } from "../../src/agent/agent-result.js";
import { AgentCommand } from "../../src/agent/command/agent-command.js";
import { AbstractAgentModule } from "../../src/agent/module/abstract-agent-module.js";
import { ActionType } from "../../src/agent/module/action-type.js";
import { ModuleRouting } from "../../src/agent/module/module-routing.js";
import { literal } from "../../src/agent/text.js";
import { AssistantServer } from "../../src/assistant/assistant-server.js";
import type { PlayerInfo } from "../../src/assistant/player-directory.js";
import { systemClock } from "../../src/game/context-types.js";
import { MemoryGameBridge } from "../../src/game/tools/memory-game-bridge.js";
import { QUESTION_ACTION, type QuestionInput } from "../../src/module/builtin/question/question-input.js";
import type { AnyServerModuleType, ServerModule } from "../../src/module/server-module.js";
import { codec } from "../../src/util/codec.js";
import { Identifier } from "../../src/util/identifier.js";
import { type Logger, silentLogger } from "../../src/util/logger.js";

/** A test extension workflow `/system secret` reachable by command and by the model router. */
const SECRET = ActionType.of("test:secret_action", codec(z.object({})));
class SecretModule extends AbstractAgentModule<Record<string, never>> {
  constructor(owner: Identifier) {
    super({
      action: SECRET,
      description: "A secret test capability.",
      owner,
      routing: ModuleRouting.defaults<Record<string, never>>().command(AgentCommand.literal({}, "secret")),
    });
  }
  async run(): Promise<AgentResult> {
    return AgentResult.success(literal("secret ran"));
  }
}

/** A feature disabled by default (like system:search): players need a grant. */
export const SECRET_TYPE: AnyServerModuleType = {
  id: Identifier.parse("test:secret"),
  config: codec(z.unknown()),
  create: (id): ServerModule => ({
    id,
    type: Identifier.parse("test:secret"),
    enabledByDefault: false,
    toolModule: false,
    install: (context) => context.engine.registerModule(new SecretModule(context.id)),
    storages: () => [],
  }),
};

/** A stand-in for `system:question` (same action type) so the `ask` mode can be observed without a knowledge base. */
class QuestionStub extends AbstractAgentModule<QuestionInput> {
  constructor(owner: Identifier) {
    super({ action: QUESTION_ACTION, description: "Answers questions (test stub).", owner });
  }
  async run(input: QuestionInput): Promise<AgentResult> {
    return AgentResult.success(literal(`question stub: ${input.text}`));
  }
}

export const QUESTION_STUB_TYPE: AnyServerModuleType = {
  id: Identifier.parse("test:question_stub"),
  config: codec(z.unknown()),
  create: (id): ServerModule => ({
    id,
    type: Identifier.parse("test:question_stub"),
    enabledByDefault: true,
    toolModule: false,
    install: (context) => context.engine.registerModule(new QuestionStub(context.id)),
    storages: () => [],
  }),
};

/** A workflow of a feature whose install throws after registering nothing usable. */
const BROKEN = ActionType.of("test:broken_action", codec(z.object({})));
class BrokenModule extends AbstractAgentModule<Record<string, never>> {
  constructor(owner: Identifier) {
    super({
      action: BROKEN,
      description: "Broken test capability.",
      owner,
      routing: ModuleRouting.defaults<Record<string, never>>().command(AgentCommand.literal({}, "broken")),
    });
  }
  async run(): Promise<AgentResult> {
    return AgentResult.success(literal("broken ran"));
  }
}

/** Registers its workflow, then throws: the manager must not install it, so it must appear nowhere. */
export const BROKEN_TYPE: AnyServerModuleType = {
  id: Identifier.parse("test:broken"),
  config: codec(z.unknown()),
  create: (id): ServerModule => ({
    id,
    type: Identifier.parse("test:broken"),
    enabledByDefault: true,
    toolModule: false,
    install: (context) => {
      context.engine.registerModule(new BrokenModule(context.id));
      throw new Error("install failed on purpose");
    },
    storages: () => [],
  }),
};

export const ADMIN: PlayerInfo = {
  uuid: "00000000-0000-0000-0000-00000000000a",
  name: "Admin",
  locale: "en_us",
  opLevel: 4,
};
export const STEVE: PlayerInfo = {
  uuid: "00000000-0000-0000-0000-00000000000b",
  name: "Steve",
  locale: "en_us",
  opLevel: 0,
};
export const ALEX: PlayerInfo = {
  uuid: "00000000-0000-0000-0000-00000000000c",
  name: "Alex",
  locale: "zh_cn",
  opLevel: 0,
};

export interface TestAssistant {
  readonly folder: string;
  readonly configDir: string;
  readonly server: AssistantServer;
  readonly bridge: MemoryGameBridge;
}

/** Writes a data-pack entry `data/<ns>/system_module/<name>.json` under `<folder>/datapacks`. */
export const writeEntry = (folder: string, id: string, entry: object): void => {
  const [namespace, name] = id.split(":") as [string, string];
  const dir = join(folder, "datapacks", "data", namespace, "system_module");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(entry));
};

/** An assembled assistant over a temp folder and the in-memory game, with admin Admin and players Steve, Alex. */
export const startAssistant = async (
  options: { modelBaseUrl?: string; entries?: Record<string, object>; folder?: string; logger?: Logger } = {},
): Promise<TestAssistant> => {
  const folder = options.folder ?? mkdtempSync(join(tmpdir(), "system-assistant-"));
  const configDir = join(folder, "config", "system");
  mkdirSync(configDir, { recursive: true });
  if (options.modelBaseUrl !== undefined)
    writeFileSync(
      join(configDir, "model.json"),
      JSON.stringify({ baseUrl: options.modelBaseUrl, model: "scripted", apiKey: "test-key" }),
    );
  const entries = { "test:secret": { type: "test:secret" }, ...options.entries };
  for (const [id, entry] of Object.entries(entries)) writeEntry(folder, id, entry);
  const bridge = new MemoryGameBridge();
  const server = await AssistantServer.create({
    clock: systemClock(),
    paths: { dataDir: folder, world: join(folder, "world"), packRoots: [join(folder, "datapacks")] },
    bridge,
    logger: options.logger ?? silentLogger,
    environment: {},
    extraTypes: [SECRET_TYPE, BROKEN_TYPE, QUESTION_STUB_TYPE],
  });
  for (const player of [ADMIN, STEVE, ALEX]) {
    bridge.join(player.uuid, player.name);
    await server.join(player);
  }
  return { folder, configDir, server, bridge };
};

/** Plain text of a presented reply (card text or message), for assertions. */
export const replyText = (reply: { card: unknown; result: AgentResult }): string =>
  JSON.stringify(reply.card ?? null) + JSON.stringify(reply.result.message ?? null);
