import { z } from "zod";
import { AgentException } from "../../../agent/agent-exception.js";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { NestedWorkflows } from "../../../agent/execution/agent-engine.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { defaultPolicyFor } from "../../../agent/execution/policy-defaults.js";
import { PromptNames, type PromptSource } from "../../../agent/model/prompt-source.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import type { AnyAgentModule } from "../../../agent/module/agent-module.js";
import type { ModuleRegistry } from "../../../agent/module/module-registry.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { ReActContext } from "../../../agent/react/react-context.js";
import { ReActLoop } from "../../../agent/react/react-loop.js";
import { ANSWERABLE_FAILURES, isTerminal, TEXT_ANSWER } from "../../../agent/react/react-outcome.js";
import { type AnyReActTool, ReActTool } from "../../../agent/react/react-tool.js";
import type { Availability } from "../../../agent/routing/routing-player.js";
import { ToolType } from "../../../agent/tool/tool-type.js";
import type { PlayerNotices } from "../../../game/context-types.js";
import { codec, type Json } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import { EXTERNAL_SERVICES_OFF, type PlayerSwitches } from "../question/player-switches.js";
import { freeChatPresentation } from "./free-chat-card.js";
import {
  type RenderCard,
  WORKFLOW_OUTCOME,
  type WorkflowOutcome,
  workflowOutcome,
} from "./workflow-outcome.js";

/** The workflow `full` mode sends plain text to. */
export const FREE_CHAT_ID = "system:free_chat";

export interface FreeChatInput {
  readonly text: string;
  /** This request's own permission to use the web; a workflow free chat runs never gets more. */
  readonly allowWeb: boolean;
}

export const FREE_CHAT_ACTION = ActionType.of<FreeChatInput>(
  FREE_CHAT_ID,
  codec(
    z
      .object({
        text: z.string().trim().min(1).max(2_000).describe("The player's request in their own words."),
        allowWeb: z.boolean().default(false),
      })
      .strict() as unknown as z.ZodType<FreeChatInput>,
  ),
);

/** Output tokens asked for per round (the answer's 4 000 characters fit). */
const MAX_OUTPUT_TOKENS = 1_024;

export interface FreeChatOptions {
  readonly owner: Identifier;
  /** The installed workflows (read per request: the catalog is what this player may use now). */
  readonly modules: () => ModuleRegistry;
  readonly workflows: NestedWorkflows;
  readonly availability: Availability;
  readonly notices: PlayerNotices;
  readonly render: RenderCard;
  readonly switches: PlayerSwitches;
  readonly prompts: PromptSource;
}

/**
 * `system:free_chat` (free mode): a bounded ReAct loop whose actions are the workflows this player may use now
 * (interactive, their feature enabled, available in their mode; never structured-only ones such as a payment's
 * confirmation, never free chat itself). Each call runs the real workflow nested in this request (shared
 * counters, its own policy spent from what is left, write steps under `w<n>/`), and its card reaches the player
 * as it completes; the model sees the card's text. A payment is never made here: the quote card is shown and
 * paying is the player's own click.
 */
export class FreeChatModule extends AbstractAgentModule<FreeChatInput> {
  readonly requiresModel = true;

  constructor(private readonly options: FreeChatOptions) {
    super({
      action: FREE_CHAT_ACTION,
      writes: "state",
      description:
        "Free chat: a model works through the server's workflows for you (look up, check in, quote) and answers.",
      owner: options.owner,
      policy: defaultPolicyFor(FREE_CHAT_ID),
      // reached through the `full` mode or its command, never chosen by the router
      routing: ModuleRouting.structuredOnly<FreeChatInput>().command(
        AgentCommand.argument("<request>", (text) => ({ text, allowWeb: false }), "free", "自由"),
      ),
    });
  }

  override async run(input: FreeChatInput, context: ExecutionContext): Promise<AgentResult> {
    context.checkInput(input.text);
    // free chat runs workflows; it is never one of them (no recursion beyond one level)
    if (context.depth > 0) throw new AgentException(AgentFailure.TOOL_NOT_ALLOWED.with(FREE_CHAT_ID));
    const { switches, prompts } = this.options;
    const playerId = context.playerId;
    if (!switches.aiEnabled(playerId)) return AgentResult.error(AgentFailure.AI_DISABLED);
    if (!(await switches.externalAllowed(playerId))) return AgentResult.error(EXTERNAL_SERVICES_OFF);
    let shown = 0;
    const catalog = this.#catalog(context).map((module) =>
      ReActTool.of(
        ToolType.of(module.id, module.action.codec, WORKFLOW_OUTCOME),
        describe(module),
      ).withHandler(async (given) => {
        const outcome = await this.#runWorkflow(module, given, input, context, shown + 1);
        if (outcome.shown) shown++;
        return outcome;
      }, []),
    ) as unknown as AnyReActTool[];
    const react = ReActContext.create(context, {
      question: input.text,
      prompt: prompts.get(PromptNames.FREE_CHAT),
      tools: context.tools(),
      catalog,
      answer: TEXT_ANSWER,
    });
    const outcome = await ReActLoop.run(context, react, {
      recoverable: ANSWERABLE_FAILURES,
      // a decision is a short JSON object; no one round may take the request's whole output budget
      maxOutputTokens: MAX_OUTPUT_TOKENS,
      guard: () => (switches.aiEnabled(playerId) ? undefined : AgentFailure.AI_DISABLED),
    });
    if (outcome.kind !== "failed")
      return AgentResult.success(
        undefined,
        freeChatPresentation({ text: outcome.answer.text, ran: shown, incomplete: false }),
      );
    if (shown === 0 || isTerminal(outcome.failure)) return AgentResult.error(outcome.failure);
    return AgentResult.success(
      undefined,
      freeChatPresentation({ text: "", ran: shown, incomplete: true }),
    ).partial(outcome.failure);
  }

  /** The workflows this player may use now, in registration order. */
  #catalog(context: ExecutionContext): AnyAgentModule[] {
    const registry = this.options.modules();
    const features = context.features;
    return registry
      .values()
      .filter(
        (module) =>
          module.interactive &&
          module.id.toString() !== FREE_CHAT_ID &&
          registry.routing(module.id).selection !== "structured_only" &&
          registry.usable(module.id, features) &&
          this.options.availability(context.playerId, module.id.toString()) &&
          module.description.trim().length > 0,
      )
      .map((module) => registry.variant(module.id, features) ?? module);
  }

  /**
   * Runs one workflow nested in this request and shows its card to the player. A failure of the workflow itself
   * (not found, refused for this input, its own budget) is an observation the model can answer from; the request
   * losing its standing, time or cancellation ends the loop.
   */
  async #runWorkflow(
    module: AnyAgentModule,
    given: unknown,
    own: FreeChatInput,
    context: ExecutionContext,
    index: number,
  ): Promise<WorkflowOutcome> {
    const encoded = narrowed(module.action.codec.encode(given), own);
    const result = await this.options.workflows.runNested(
      module.id.toString(),
      encoded,
      context,
      `w${index}`,
    );
    // the request itself cancelled, out of time or without standing: that ends the loop, not the model's turn
    context.checkAlive();
    const view = this.options.render(result, context.locale);
    const shown = !result.isFailure() && view !== undefined;
    if (shown) this.options.notices(context.playerId, result);
    return workflowOutcome(module.id.toString(), result, view, shown);
  }
}

/**
 * A workflow as the model sees it: its description, and for one that declares writes a note that it changes
 * state, so the model runs it only when asked (what pays or confirms stays the player's own click on its card).
 */
const describe = (module: AnyAgentModule): string =>
  module.writes === "none" ? module.description : `${module.description} ${WRITES_NOTE}`;

/** The note on a writing workflow in free chat's catalog. */
export const WRITES_NOTE = "[changes state: only when the player asks for it]";

/** Untrusted model input never widens the request: a workflow's `allowWeb` is at most free chat's own. */
const narrowed = (encoded: Json, own: FreeChatInput): Json => {
  if (own.allowWeb || typeof encoded !== "object" || encoded === null || Array.isArray(encoded))
    return encoded;
  return "allowWeb" in encoded ? { ...encoded, allowWeb: false } : encoded;
};
