import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnyAgentModule } from "../../src/agent/module/agent-module.js";
import {
  directRefusal,
  isReadOnlyModule,
  isReplayedModule,
} from "../../src/agent/routing/direct-qualification.js";
import { RouteSession } from "../../src/assistant/route-cli.js";
import { tempFolder } from "../e2e/host-support.js";

const QUESTS = join(import.meta.dirname, "..", "fixtures", "ftbquests", "system-basics");

/**
 * Workflows that change state without a write tool or a write budget: each must say so itself (the web panel's
 * bind and unbind exist only beside a panel: test/system/write-declarations.test.ts checks them).
 */
const STATE_CHANGING = [
  "system:admin_access",
  "system:admin_revoke",
  "system:admin_reset",
  "system:admin_reload",
  "system:admin_restore",
  "system:admin_feature",
  "system:mode",
  "system:settings",
  "system:clear",
  "system:deliveries",
  "system:events",
  "system:knowledge_admin",
  "system:shop",
  "system:shop_quote",
  "system:shop_confirm",
  "system:shop_cancel",
  "system:quest_check",
  "system:quest_submit",
  "system:quest_complete",
  "system:quest_claim",
  "system:points_admin",
  "system:check_in",
];

/**
 * Every workflow of the shipped assembly (built-in features, quest files, the web panel) against its write
 * declaration: no state-changing workflow is reachable by a read route (a direct semantic route, the intent
 * cache, a fallback candidate, the reasoning catalog), and only what may replay is replayed.
 */
describe("write declarations over the whole registry", () => {
  let session: RouteSession;
  let modules: AnyAgentModule[];

  beforeAll(async () => {
    session = await RouteSession.open({
      words: [],
      stdin: false,
      player: "Admin",
      locale: "en_us",
      opLevel: 4,
      packs: [],
      dataDir: tempFolder("system-writes-"),
      quests: QUESTS,
    });
    modules = session.server.infrastructure.engine.modules().values();
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it("every state-changing workflow declares that it writes", () => {
    const byId = new Map(modules.map((module) => [module.id.toString(), module]));
    const missing = STATE_CHANGING.filter((id) => !byId.has(id));
    expect(missing).toEqual([]);
    for (const id of STATE_CHANGING) expect(byId.get(id)?.writes, id).toMatch(/^(state|replayable)$/);
    // the admin's own settings run again each time: a repeat of a reload or a grant is never an old answer
    // a claim is idempotent by itself and runs again: one whose rewards did not fit must queue the next attempt
    for (const id of [
      "system:admin_reload",
      "system:admin_access",
      "system:mode",
      "system:settings",
      "system:quest_claim",
    ])
      expect(isReplayedModule(byId.get(id) as AnyAgentModule), id).toBe(false);
    // a second click of a payment's confirmation or a check-in is answered by the stored answer, never run twice
    for (const id of ["system:check_in", "system:shop_confirm"])
      expect(isReplayedModule(byId.get(id) as AnyAgentModule), id).toBe(true);
  });

  it("no workflow that declares writes qualifies for a read route", () => {
    const engine = session.server.infrastructure.engine;
    const registry = engine.modules();
    for (const module of modules) {
      if (module.writes === "none") continue;
      const id = module.id.toString();
      expect(directRefusal(module, registry.routing(module.id), engine.policyOf(module)), id).toBeDefined();
      expect(isReadOnlyModule(module, engine.policyOf(module)), id).toBe(false);
    }
    // the reasoning catalog holds read-only tools only, and no tool of a writing workflow's own
    const writing = new Set(
      modules.filter((module) => module.writes !== "none").flatMap((module) => module.tools),
    );
    for (const tool of engine.tools.reasoningTools()) {
      expect(tool.readOnly, tool.id.toString()).toBe(true);
      expect(writing.has(tool), tool.id.toString()).toBe(false);
    }
  });

  it("routes every sample of every workflow, read or write, to reads only without a model", async () => {
    const registry = session.server.infrastructure.engine.modules();
    const writes = new Set(modules.filter((m) => m.writes !== "none").map((m) => m.id.toString()));
    const samples = modules.flatMap((module) => registry.routing(module.id).profile?.samples() ?? []);
    expect(samples.length).toBeGreaterThan(40);
    const reached: string[] = [];
    const offers: string[] = [];
    for (const text of samples) {
      const decision = await session.explain(text);
      const direct = decision.path === "semantic" || decision.path === "cache";
      if (direct && writes.has(String(decision.moduleId))) reached.push(`${text} → ${decision.moduleId}`);
      // a write may be offered only as the fallback card's first button, the explicit consent the player clicks
      // (recorded as fallback:offer:<id>); never as one of the read candidates, and never run before the click
      const offered = (decision.selection as { action: string }[] | null) ?? [];
      const steps = decision.steps as string[];
      offered.forEach((candidate, index) => {
        if (!writes.has(candidate.action)) return;
        const consent =
          index === 0 &&
          decision.path === "local_fallback" &&
          steps.includes(`fallback:offer:${candidate.action}`);
        if (consent) offers.push(text);
        else reached.push(`${text} → candidate ${candidate.action}`);
      });
    }
    expect(reached).toEqual([]);
    // help's own write examples are offered as buttons (issue: help's examples work without a model)
    expect(offers).toEqual(expect.arrayContaining(["daily check in", "I want to buy 10 bread"]));
  }, 120_000);
});
