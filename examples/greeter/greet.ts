// The read-only half: a workflow players reach by command or by plain text, and a tool reasoning may call.
import {
  AbstractAgentModule,
  ActionType,
  AgentCommand,
  AgentResult,
  codec,
  type ExecutionContext,
  ModuleRouting,
  RoutingProfile,
  Tool,
  ToolType,
  translatable,
} from "system/agent";
import type { GameBridge } from "system/game";
import { z } from "zod";

/** `greeter:greeting`: the server's greeting and the asking player's name. Read-only, so reasoning may call it. */
export const GREETING = ToolType.of(
  "greeter:greeting",
  codec(z.object({}).strict()),
  codec(z.object({ greeting: z.string(), player: z.string() })),
);

export const greetingTool = (options: { readonly greeting: string; readonly bridge: GameBridge }) =>
  Tool.of(GREETING, async (_input, scope) => ({
    greeting: options.greeting,
    player: options.bridge.playerName(scope.playerId) ?? scope.playerId,
  }))
    .asReadOnly()
    .forReasoning("The server's welcome greeting and the asking player's name. Input: {}.");

const greetSchema = z.object({}).strict();
export type GreetInput = z.infer<typeof greetSchema>;
export const GREET = ActionType.of("greeter:greet", codec(greetSchema));

/** How players ask for it in plain text; the semantic router answers these without a model call. */
const SAMPLES = {
  zh: ["跟我打个招呼", "欢迎我一下", "服务器的欢迎语是什么", "向我问好"],
  en: ["greet me", "say hello to me", "what is the server's welcome message", "welcome me"],
};

/** `greeter:greet`: `/system greet` (or plain text like "greet me") answers with the configured greeting. */
export class GreetModule extends AbstractAgentModule<GreetInput> {
  constructor(tool: Tool<GreetInput, { greeting: string; player: string }>) {
    super({
      action: GREET,
      description: "Greet the player with the server's welcome message.",
      tools: [tool],
      routing: ModuleRouting.defaults<GreetInput>()
        .command(AgentCommand.literal<GreetInput>({}, "greet", "问候"))
        .semantic(RoutingProfile.read<GreetInput>(() => ({}), SAMPLES.zh, SAMPLES.en)),
    });
  }

  override async run(_input: GreetInput, context: ExecutionContext): Promise<AgentResult> {
    const { greeting, player } = await context.tool(GREETING, "greeting", {});
    return AgentResult.success(translatable("greeter.greet.reply", greeting, player));
  }
}
