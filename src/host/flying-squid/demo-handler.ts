import { argument, CommandDispatcher, greedyString, literal } from "@jsprismarine/brigadier";
import { type Languages, normalizeLocale } from "../../util/language.js";
import { cardComponent } from "../shared/card-component.js";
import { brigadierTree } from "../shared/declare-commands.js";
import type { HostHandler, HostPlayer } from "../shared/host-handler.js";

/**
 * A handler without the assistant: `/system <text>` answers with a card echoing the text and one button;
 * `/system card <ref> <action>` confirms the click. Used by `standalone.ts` and as a wiring example.
 */
export const demoHandler = (languages: Languages, log: (line: string) => void = () => {}): HostHandler => {
  const text = (player: HostPlayer, key: string, ...args: string[]): string =>
    languages.format(normalizeLocale(player.locale()), key, args);
  const dispatcher = new CommandDispatcher<HostPlayer>();
  dispatcher.register(
    literal<HostPlayer>("system")
      .then(
        literal<HostPlayer>("card").then(
          argument<HostPlayer, string>("click", greedyString()).executes(async (context) => {
            const player = context.getSource();
            player.sendText(text(player, "system.host.demo.clicked", context.getArgument("click") as string));
            return 1;
          }),
        ),
      )
      .then(
        argument<HostPlayer, string>("instruction", greedyString()).executes(async (context) => {
          const text = context.getArgument("instruction") as string;
          context.getSource().sendCard(
            cardComponent({
              title: "System",
              lines: [text],
              buttons: [{ label: "OK", ref: "demo", action: "ok" }],
            }),
          );
          return 1;
        }),
      ),
  );
  return {
    async onCommand(player, line) {
      log(`command ${player.name}: ${line}`);
      await dispatcher.execute(line, player);
    },
    async completions(player, line) {
      const suggestions = await dispatcher.getCompletionSuggestions(dispatcher.parse(line, player));
      return suggestions.getList().map((suggestion) => suggestion.getText());
    },
    commandTree: (player) => brigadierTree(dispatcher.getRoot(), player),
    onJoin: (player) => log(`join ${player.name}`),
    onLeave: (player) => log(`leave ${player.name}`),
  };
};
