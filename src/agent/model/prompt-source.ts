import { AgentException } from "../agent-exception.js";
import { AgentFailure } from "../agent-failure.js";

/**
 * Where workflows read their system prompts. A request takes `get(name)` once and keeps the string (its
 * snapshot), so a reload changes new requests only. Names are ids: `system:react`, or bare `react` for `system:`.
 */
export interface PromptSource {
  /** The current text of a prompt; throws AgentException(MODULE_FAILED) when no pack provides it. */
  get(name: string): string;
  /** Bumped by every reload that changed a prompt; lets callers cache derived data safely. */
  readonly generation: number;
}

/** The prompts of the built-in data pack (`data/system/system/prompts/<name>.txt`). */
export const PromptNames = {
  REACT: "system:react",
  WEB_SEARCH: "system:web_search",
  ROUTER: "system:router",
  FREE_CHAT: "system:free_chat",
} as const;

/** `react` → `system:react`; an id with a namespace stays as it is. */
export const promptId = (name: string): string => (name.includes(":") ? name : `system:${name}`);

/** The failure of a missing prompt (a broken data pack, not a player error). */
export const missingPrompt = (name: string): AgentException =>
  new AgentException(AgentFailure.MODULE_FAILED.with(`prompt ${promptId(name)}`));

/** A fixed PromptSource (tests, embedding). */
export const fixedPrompts = (prompts: Readonly<Record<string, string>>): PromptSource => {
  const table = new Map(Object.entries(prompts).map(([name, text]) => [promptId(name), text]));
  return {
    generation: 0,
    get(name: string): string {
      const text = table.get(promptId(name));
      if (text === undefined) throw missingPrompt(name);
      return text;
    },
  };
};
