import { randomUUID } from "node:crypto";
import type { AgentResult } from "../../src/agent/agent-result.js";
import { CardRegistry } from "../../src/agent/card/card-registry.js";
import { AgentEngine } from "../../src/agent/execution/agent-engine.js";
import type { ExecutionContext } from "../../src/agent/execution/execution-context.js";
import type { AgentAction } from "../../src/agent/module/action-type.js";
import { ServiceContext } from "../../src/agent/module/context-type.js";
import type { ModuleRegistry } from "../../src/agent/module/module-registry.js";
import { KnowledgeDatabase } from "../../src/data/knowledge/knowledge-database.js";
import { GameContextTypes } from "../../src/game/context-types.js";
import {
  KNOWLEDGE_DATABASE,
  KNOWLEDGE_MODULE_TYPE,
} from "../../src/module/builtin/knowledge/knowledge-module.js";
import type { PlayerSwitches } from "../../src/module/builtin/question/player-switches.js";
import { PLAYER_SWITCHES } from "../../src/module/builtin/question/player-switches.js";
import { QUESTION_ACTION, type QuestionInput } from "../../src/module/builtin/question/question-input.js";
import { builtinPrompts, PROMPT_SOURCE } from "../../src/module/builtin/question/question-services.js";
import { QUESTION_MODULE_TYPE } from "../../src/module/builtin/question/question-system-module.js";
import { REASONING_ACTION } from "../../src/module/builtin/reasoning/reasoning-input.js";
import { REASONING_MODULE_TYPE } from "../../src/module/builtin/reasoning/reasoning-system-module.js";
import { SEARCH_MODULE_TYPE } from "../../src/module/builtin/search/search-module.js";
import { WEB_ACCESS, WebAccess } from "../../src/module/builtin/search/web-access.js";
import { FeatureSwitches } from "../../src/module/feature-switches.js";
import { ModuleManager } from "../../src/module/module-manager.js";
import type { AnyServerModuleType, SystemModuleEntry } from "../../src/module/server-module.js";
import { SystemModuleTags } from "../../src/module/system-module-tags.js";
import type { Json } from "../../src/util/codec.js";
import { Identifier } from "../../src/util/identifier.js";
import { MemoryLogger } from "../../src/util/logger.js";
import { Registry } from "../../src/util/registry.js";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import { SearchTestServer } from "../support/search-server.js";
import { testGateway } from "../support/test-model.js";

export const PLAYER = "00000000-0000-4000-8000-0000000000a1";
export const FEATURES = ["system:knowledge", "system:question", "system:reasoning", "system:search"] as const;

/** Switches a test flips: AI, external services and the player's enabled features. */
export class TestSwitches implements PlayerSwitches {
  ai = true;
  external = true;
  readonly features = new Set<string>(FEATURES);
  aiEnabled(): boolean {
    return this.ai;
  }
  externalAllowed(): boolean {
    return this.external;
  }
  featureEnabled(_playerId: string, featureId: string): boolean {
    return this.features.has(featureId);
  }
}

export interface Harness {
  readonly engine: AgentEngine;
  readonly model: ScriptedModelServer;
  readonly web: SearchTestServer;
  readonly database: KnowledgeDatabase;
  readonly access: WebAccess;
  readonly switches: TestSwitches;
  readonly logger: MemoryLogger;
  /** Contexts of the requests run so far (their counters tell how many tools and model calls ran). */
  readonly contexts: ExecutionContext[];
  ask(text: string, allowWeb?: boolean): Promise<AgentResult>;
  reason(request: string): Promise<AgentResult>;
  run(action: AgentAction): Promise<AgentResult>;
  close(): Promise<void>;
}

const entry = (type: AnyServerModuleType, path: string, server: Json = {}): SystemModuleEntry => ({
  id: Identifier.parse(`system:${path}`),
  type: type.id,
  enabled: true,
  enabledByDefault: undefined,
  server,
  client: {},
  source: "test",
});

/**
 * The four features installed through the real ModuleManager into a real engine, with a scripted model server
 * (or none), an in-memory knowledge database and a loopback SearXNG-shaped server that the SSRF guard allows
 * (only that host:port).
 */
export const startHarness = async (options: { readonly model?: boolean } = {}): Promise<Harness> => {
  const model = await ScriptedModelServer.start();
  const web = await SearchTestServer.start();
  const database = KnowledgeDatabase.open(":memory:");
  const access = new WebAccess();
  const switches = new TestSwitches();
  const logger = new MemoryLogger();
  const engine = new AgentEngine(
    options.model === false ? { logger } : { logger, model: testGateway(model) },
  );
  const services = new ServiceContext<AgentEngine, ModuleRegistry>(engine, engine.modules())
    .provide(KNOWLEDGE_DATABASE, database)
    .provide(WEB_ACCESS, access)
    .provide(PLAYER_SWITCHES, switches)
    .provide(PROMPT_SOURCE, builtinPrompts())
    .provide(GameContextTypes.CARDS, new CardRegistry());
  const types = new Registry<AnyServerModuleType>("server_module");
  for (const type of [
    KNOWLEDGE_MODULE_TYPE,
    QUESTION_MODULE_TYPE,
    REASONING_MODULE_TYPE,
    SEARCH_MODULE_TYPE,
  ] as AnyServerModuleType[])
    types.register(type.id, type);
  const manager = new ModuleManager({
    types,
    engine,
    logger,
    switches: new FeatureSwitches(undefined, logger),
    tags: SystemModuleTags.empty(),
  });
  manager.install(
    [
      entry(KNOWLEDGE_MODULE_TYPE as AnyServerModuleType, "knowledge"),
      entry(QUESTION_MODULE_TYPE, "question"),
      entry(REASONING_MODULE_TYPE, "reasoning"),
      entry(SEARCH_MODULE_TYPE as AnyServerModuleType, "search", {
        provider: "searxng",
        searxng: { url: `${web.origin}/` },
        allow_private: [`127.0.0.1:${web.port}`],
        fetch: { max_bytes: 65_536, timeout_millis: 5_000, max_redirects: 3, summary_chars: 500 },
      }),
    ],
    services,
  );
  engine.start();
  const contexts: ExecutionContext[] = [];
  const run = (action: AgentAction): Promise<AgentResult> =>
    engine.execute(action, {
      requestId: randomUUID(),
      playerId: PLAYER,
      locale: "en_us",
      features: new Set(switches.features),
      onContext: (context) => contexts.push(context),
    });
  return {
    engine,
    model,
    web,
    database,
    access,
    switches,
    logger,
    contexts,
    run,
    ask: (text, allowWeb = false) =>
      run(QUESTION_ACTION.action({ text, allowWeb } satisfies QuestionInput) as AgentAction),
    reason: (request) => run(REASONING_ACTION.action({ request }) as AgentAction),
    async close() {
      database.close();
      await model.close();
      await web.close();
    },
  };
};

/** A model reply as JSON text. */
export const reply = (value: Json): { text: string } => ({ text: JSON.stringify(value) });

/** The card data of a result's presentation. */
export const cardOf = (result: AgentResult): Record<string, unknown> =>
  (result.presentation?.data ?? {}) as Record<string, unknown>;
