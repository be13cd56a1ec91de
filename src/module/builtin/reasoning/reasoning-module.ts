import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import type { ExecutionPolicy } from "../../../agent/execution/execution-policy.js";
import { defaultPolicyFor } from "../../../agent/execution/policy-defaults.js";
import { PromptNames, type PromptSource } from "../../../agent/model/prompt-source.js";
import type { AgentModule } from "../../../agent/module/agent-module.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import type { ModuleWrites } from "../../../agent/module/module-writes.js";
import { RoutingProfile } from "../../../agent/module/routing-profile.js";
import { ReActContext } from "../../../agent/react/react-context.js";
import { ReActLoop } from "../../../agent/react/react-loop.js";
import { ANSWERABLE_FAILURES, isTerminal, TEXT_ANSWER } from "../../../agent/react/react-outcome.js";
import { type AnyReActTool, ReActTool } from "../../../agent/react/react-tool.js";
import type { AnyTool } from "../../../agent/tool/tool.js";
import type { ToolLookup } from "../../../agent/tool/tool-registry.js";
import type { AnyToolType } from "../../../agent/tool/tool-type.js";
import type { Identifier } from "../../../util/identifier.js";
import { EXTERNAL_SERVICES_OFF, type PlayerSwitches } from "../question/player-switches.js";
import { WEB_FETCH, WEB_SEARCH } from "../search/web-tools.js";
import { reasoningPresentation, stepsOf } from "./reasoning-card.js";
import { REASONING_ACTION, type ReasoningInput } from "./reasoning-input.js";

/** Web tools are never part of reasoning, whatever a registration says. */
const NEVER = new Set([WEB_SEARCH.id.toString(), WEB_FETCH.id.toString()]);

export interface ReasoningModuleOptions {
  readonly owner?: Identifier;
  /** The engine's tool registry: the catalog is its tools declared `forReasoning`. */
  readonly tools: ToolLookup;
  readonly switches: PlayerSwitches;
  readonly prompts: PromptSource;
}

/**
 * `system:reasoning`: a bounded ReAct loop over exactly the enabled read-only tools declared for reasoning
 * (filtered per player by ExecutionContext.canUse), never the web. If the final answer fails after lookups,
 * the lookups are kept as a partial result that says the analysis is incomplete; tool JSON is never shown.
 */
export class ReasoningModule implements AgentModule<ReasoningInput> {
  readonly id = REASONING_ACTION.id;
  readonly description =
    "Answer a request that needs several read-only lookups combined (knowledge, player info, items and their sources).";
  readonly action = REASONING_ACTION;
  readonly tools: readonly AnyTool[] = [];
  readonly policy: ExecutionPolicy = defaultPolicyFor("system:reasoning");
  /** Its catalog is read-only tools only. */
  readonly writes: ModuleWrites = "none";
  readonly interactive = true;
  readonly event = false;
  readonly eventTypes: readonly string[] = [];
  readonly owner: Identifier | undefined;
  readonly requiresModel = true;

  constructor(private readonly options: ReasoningModuleOptions) {
    this.owner = options.owner;
  }

  /** Every installed tool declared for reasoning (read live, so tools registered after this module count). */
  get optionalTools(): readonly AnyToolType[] {
    return this.#catalogTools().map((tool) => tool.type);
  }

  routing(): ModuleRouting<ReasoningInput> {
    return ModuleRouting.defaults<ReasoningInput>()
      .command(AgentCommand.argument("<request>", (request) => ({ request }), "reason", "分析"))
      .semantic(
        RoutingProfile.hints(
          ["我的任务需要什么材料，从哪里弄到", "分析一下我还缺什么才能做下界合金"],
          [
            "what do I need for my next quest and where do I get it",
            "work out what I am missing for netherite",
          ],
        ),
      );
  }

  async run(input: ReasoningInput, context: ExecutionContext): Promise<AgentResult> {
    context.checkInput(input.request);
    const switches = this.options.switches;
    const playerId = context.playerId;
    if (!switches.aiEnabled(playerId)) return AgentResult.error(AgentFailure.AI_DISABLED);
    if (!(await switches.externalAllowed(playerId))) return AgentResult.error(EXTERNAL_SERVICES_OFF);
    const catalogTools = this.#catalogTools();
    const tools = context.tools(...catalogTools.map((tool) => tool.type));
    const catalog: AnyReActTool[] = catalogTools.map((tool) =>
      ReActTool.of(tool.type, tool.reasoningDescription ?? tool.id.toString()),
    );
    const react = ReActContext.create(context, {
      question: input.request,
      prompt: this.options.prompts.get(PromptNames.REACT),
      tools,
      catalog,
      answer: TEXT_ANSWER,
    });
    const outcome = await ReActLoop.run(context, react, {
      recoverable: ANSWERABLE_FAILURES,
      guard: () => (switches.aiEnabled(playerId) ? undefined : AgentFailure.AI_DISABLED),
    });
    if (outcome.kind !== "failed")
      return AgentResult.success().withPresentation(
        reasoningPresentation({
          text: outcome.answer.text,
          steps: stepsOf(outcome.observations),
          incomplete: false,
        }),
      );
    if (outcome.observations.length === 0 || isTerminal(outcome.failure))
      return AgentResult.error(outcome.failure);
    return AgentResult.success()
      .withPresentation(
        reasoningPresentation({ text: "", steps: stepsOf(outcome.observations), incomplete: true }),
      )
      .partial(outcome.failure);
  }

  #catalogTools(): AnyTool[] {
    return this.options.tools
      .reasoningTools()
      .filter((tool) => tool.readOnly && !NEVER.has(tool.id.toString()));
  }
}
