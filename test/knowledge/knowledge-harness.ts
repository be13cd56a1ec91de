import { randomUUID } from "node:crypto";
import type { AgentResult } from "../../src/agent/agent-result.js";
import type { AgentEngine } from "../../src/agent/execution/agent-engine.js";
import type { ExecutionContext } from "../../src/agent/execution/execution-context.js";
import type { AgentAction } from "../../src/agent/module/action-type.js";
import type { KnowledgeDatabase } from "../../src/data/knowledge/knowledge-database.js";
import { SqliteKnowledgeStore } from "../../src/data/knowledge/sqlite-knowledge-store.js";
import { KNOWLEDGE_STORE } from "../../src/module/builtin/knowledge/knowledge-module.js";
import { QUESTION_ACTION, type QuestionInput } from "../../src/module/builtin/question/question-input.js";
import { REASONING_ACTION } from "../../src/module/builtin/reasoning/reasoning-input.js";
import { WEB_ACCESS, type WebAccess } from "../../src/module/builtin/search/web-access.js";
import type { Json } from "../../src/util/codec.js";
import type { MemoryLogger } from "../../src/util/logger.js";
import { GameHarness } from "../support/game-harness.js";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import { SearchTestServer } from "../support/search-server.js";
import { modelEnvironment } from "../support/test-model.js";

export const PLAYER = "00000000-0000-4000-8000-0000000000a1";
export const FEATURES = ["system:knowledge", "system:question", "system:reasoning", "system:search"] as const;

export interface Harness {
  readonly engine: AgentEngine;
  readonly model: ScriptedModelServer;
  readonly web: SearchTestServer;
  /** The knowledge feature's own database (`<world>/system/knowledge.sqlite`). */
  readonly database: KnowledgeDatabase;
  /** The web gate the features were given. */
  readonly access: WebAccess;
  readonly logger: MemoryLogger;
  /** Contexts of the requests run so far (their counters tell how many tools and model calls ran). */
  readonly contexts: ExecutionContext[];
  /** An admin turns the player's AI access on or off (`/system grant|revoke <player>`). */
  setAi(enabled: boolean): Promise<void>;
  /** The player's own external-services setting (`/system settings external on|off`). */
  setExternal(enabled: boolean): Promise<void>;
  /** An admin grants or denies the player one feature. */
  setFeature(feature: string, enabled: boolean): Promise<void>;
  ask(text: string, allowWeb?: boolean): Promise<AgentResult>;
  reason(request: string): Promise<AgentResult>;
  run(action: AgentAction): Promise<AgentResult>;
  close(): Promise<void>;
}

/**
 * The four features on the shipped assembly (GameHarness): the knowledge database is the feature's own file,
 * the switches are the server's (access, preferences, feature grants), the model is configured through the
 * environment as `npm start` reads it (or not at all), and search reaches a loopback SearXNG-shaped server
 * that the SSRF guard allows (only that host:port). An admin granted the player search, which is off by default.
 */
export const startHarness = async (options: { readonly model?: boolean } = {}): Promise<Harness> => {
  const model = await ScriptedModelServer.start();
  const web = await SearchTestServer.start();
  const game = await GameHarness.create({
    environment: options.model === false ? {} : modelEnvironment(model),
    entries: [
      { id: "system:knowledge" },
      { id: "system:question" },
      { id: "system:reasoning" },
      {
        id: "system:search",
        server: {
          provider: "searxng",
          searxng: { url: `${web.origin}/` },
          allow_private: [`127.0.0.1:${web.port}`],
          fetch: { max_bytes: 65_536, timeout_millis: 5_000, max_redirects: 3, summary_chars: 500 },
        },
      },
    ],
  });
  const { permissions, services, core } = game.parts;
  const setFeature = (feature: string, enabled: boolean) =>
    permissions.update(PLAYER, (current) => ({
      ...current,
      features: { ...current.features, [feature]: enabled },
    }));
  await setFeature("system:search", true);
  const contexts: ExecutionContext[] = [];
  const run = (action: AgentAction): Promise<AgentResult> =>
    game.engine.execute(action, {
      requestId: randomUUID(),
      playerId: PLAYER,
      locale: "en_us",
      features: game.features(PLAYER),
      onContext: (context) => contexts.push(context),
    });
  return {
    engine: game.engine,
    model,
    web,
    database: sqliteDatabase(services.get(KNOWLEDGE_STORE)),
    access: services.get(WEB_ACCESS),
    logger: game.logger,
    contexts,
    setAi: (enabled) => permissions.update(PLAYER, (current) => ({ ...current, ai: enabled })),
    setExternal: (enabled) => core.setPreference(PLAYER, "external", enabled),
    setFeature,
    run,
    ask: (text, allowWeb = false) =>
      run(QUESTION_ACTION.action({ text, allowWeb } satisfies QuestionInput) as AgentAction),
    reason: (request) => run(REASONING_ACTION.action({ request }) as AgentAction),
    async close() {
      await game.close();
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

/** The SQLite database behind the feature's store (the harness runs one server on files). */
const sqliteDatabase = (store: unknown): KnowledgeDatabase => {
  if (!(store instanceof SqliteKnowledgeStore))
    throw new Error("the harness expects the embedded knowledge store");
  return store.database;
};
