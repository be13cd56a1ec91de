import type { ArgumentSuggestions } from "../../../agent/command/agent-command.js";
import type { QuestService } from "./quest-service.js";

/**
 * Completion of `/system quest <quest>`: the titles, in the player's language, of the quests they can see whose
 * title starts with what they typed, in book order. A hidden quest is never offered (it is "not found" too).
 */
export const questSuggestions =
  (service: QuestService): ArgumentSuggestions =>
  async (typed, locale, playerId) => {
    const lower = typed.trimStart().toLowerCase();
    const state = await service.state(playerId);
    const titles: string[] = [];
    for (const quest of service.book.quests.values()) {
      if (!state.visible(quest)) continue;
      const title = service.title(quest, locale);
      if (title.toLowerCase().startsWith(lower) && !titles.includes(title)) titles.push(title);
    }
    return titles;
  };
