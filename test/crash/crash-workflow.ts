import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { AgentResult } from "../../src/agent/agent-result.js";
import { AgentEngine } from "../../src/agent/execution/agent-engine.js";
import type { ExecutionContext } from "../../src/agent/execution/execution-context.js";
import { SIMPLE_POLICY } from "../../src/agent/execution/policy-defaults.js";
import { AbstractAgentModule } from "../../src/agent/module/abstract-agent-module.js";
import { ActionType } from "../../src/agent/module/action-type.js";
import { JournalStepRunner } from "../../src/agent/storage/journal-step-runner.js";
import { DataStorage, ModuleStorage } from "../../src/agent/storage/module-storage.js";
import { ModuleData } from "../../src/agent/storage/player-data.js";
import type { StepRunner } from "../../src/agent/storage/step-runner.js";
import { literal } from "../../src/agent/text.js";
import { type AnyTool, Tool } from "../../src/agent/tool/tool.js";
import { ToolType } from "../../src/agent/tool/tool-type.js";
import { FileAgentJournal } from "../../src/data/store/file-agent-journal.js";
import { FileAgentStore } from "../../src/data/store/file-agent-store.js";
import { codec } from "../../src/util/codec.js";
import { Identifier } from "../../src/util/identifier.js";
import type { Logger } from "../../src/util/logger.js";

/** Steps of one crash workflow, in order; `credit` is not idempotent, `mark` is. */
export const STEPS = [
  { id: "mark-0", tool: "mark" },
  { id: "credit-0", tool: "credit" },
  { id: "mark-1", tool: "mark" },
  { id: "credit-1", tool: "credit" },
] as const;

export const PLAYERS = ["6f1d1b34-0c5e-4a8e-9f59-0d5f4f0b0001", "6f1d1b34-0c5e-4a8e-9f59-0d5f4f0b0002"];

/** One effect line written by a tool handler before its effect (an over-count, never an under-count). */
export interface EffectLine {
  readonly request: string;
  readonly step: string;
  readonly tool: "mark" | "credit";
  readonly phase: string;
}

/** Appends one line with O_APPEND and fsyncs before returning: independent of the journal. */
export const appendEffect = (path: string, line: EffectLine): void => {
  const descriptor = openSync(path, "a");
  try {
    writeSync(descriptor, `${JSON.stringify(line)}\n`);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
};

class Ledger extends DataStorage<{ credits: string[]; marks: Record<string, number> }> {
  readonly #credits: string[];
  readonly #marks: Record<string, number>;
  constructor(data?: { credits: string[]; marks: Record<string, number> }) {
    super();
    this.#credits = [...(data?.credits ?? [])];
    this.#marks = { ...(data?.marks ?? {}) };
  }
  credit(key: string): number {
    this.#credits.push(key);
    this.markDirty();
    return this.#credits.length;
  }
  mark(key: string, value: number): void {
    if (this.#marks[key] === value) return;
    this.#marks[key] = value;
    this.markDirty();
  }
  credits(): string[] {
    return [...this.#credits];
  }
  toData() {
    return { credits: [...this.#credits], marks: { ...this.#marks } };
  }
}

/** The player ledger the credit tool writes; duplicate keys would prove a double effect. */
export const LEDGER = ModuleStorage.of({
  owner: Identifier.parse("crash:ledger"),
  type: "ledger",
  codecId: Identifier.parse("crash:ledger_v1"),
  codec: codec(z.object({ credits: z.array(z.string()), marks: z.record(z.string(), z.number()) })),
  factory: (data) => new Ledger(data),
});

interface StepInput {
  readonly request: string;
  readonly step: string;
  readonly player: string;
}
const STEP_INPUT = codec(z.object({ request: z.string(), step: z.string(), player: z.string() }));
const MARK = ToolType.of("crash:mark", STEP_INPUT, codec(z.object({ marked: z.string() })));
const CREDIT = ToolType.of("crash:credit", STEP_INPUT, codec(z.object({ credits: z.number() })));
const WORKFLOW = ActionType.of(
  "crash:workflow",
  codec(z.object({ request: z.string(), player: z.string() })),
);

class CrashWorkflow extends AbstractAgentModule<{ request: string; player: string }> {
  constructor(tools: readonly AnyTool[]) {
    super({
      action: WORKFLOW,
      description: "Runs write steps for the crash test.",
      tools,
      policy: { ...SIMPLE_POLICY, steps: 20, toolCalls: 20, writeSteps: 10, ttlMillis: 60_000 },
      interactive: false,
      event: true,
      eventTypes: ["crash:event"],
    });
  }

  override async run(
    input: { request: string; player: string },
    context: ExecutionContext,
  ): Promise<AgentResult> {
    for (const step of STEPS) {
      const stepInput = { request: input.request, step: step.id, player: input.player };
      if (step.tool === "mark") await context.tool(MARK, step.id, stepInput);
      else await context.tool(CREDIT, step.id, stepInput);
    }
    return AgentResult.success(literal("done"));
  }
}

/** Everything one process needs to run crash workflows against the real file store. */
export interface CrashRig {
  readonly engine: AgentEngine;
  readonly journal: FileAgentJournal;
  readonly store: FileAgentStore;
  run(request: string, player: string): Promise<AgentResult>;
  close(): Promise<void>;
}

/** Opens journal and store of a world and wires the workflow; `wrap` lets the worker report durable steps. */
export const openRig = async (options: {
  world: string;
  effects: string;
  phase: string;
  logger?: Logger;
  wrap?: (runner: StepRunner) => StepRunner;
}): Promise<CrashRig> => {
  const journal = await FileAgentJournal.open({
    folder: join(options.world, "system", "journal"),
    compactBytes: 48 * 1024,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  const store = new FileAgentStore({
    world: options.world,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  const mark = Tool.of(MARK, async (input: StepInput) => {
    appendEffect(options.effects, {
      request: input.request,
      step: input.step,
      tool: "mark",
      phase: options.phase,
    });
    return { marked: input.step };
  })
    .asIdempotent()
    .allowInEvents();
  const credit = Tool.of(CREDIT, async (input: StepInput) => {
    appendEffect(options.effects, {
      request: input.request,
      step: input.step,
      tool: "credit",
      phase: options.phase,
    });
    const credits = await store.transaction(input.player, (data) =>
      ModuleData.get(data, LEDGER).credit(`${input.request}/${input.step}`),
    );
    return { credits };
  }).allowInEvents();
  const runner = new JournalStepRunner(journal);
  const engine = new AgentEngine({ steps: options.wrap === undefined ? runner : options.wrap(runner) });
  engine.registerEventType("crash:event");
  engine.registerModule(new CrashWorkflow([mark as unknown as AnyTool, credit as unknown as AnyTool]));
  engine.start();
  return {
    engine,
    journal,
    store,
    run: (request, player) =>
      engine.execute(WORKFLOW.action({ request, player }), {
        requestId: request,
        playerId: player,
        locale: "en_us",
        features: new Set(),
        event: true,
      }),
    close: async () => {
      await store.close();
      await journal.close();
    },
  };
};
