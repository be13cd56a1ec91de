import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixedPrompts, type PromptSource } from "../../../agent/model/prompt-source.js";
import { ContextType } from "../../../agent/module/context-type.js";
import { BUILTIN_PACK_ROOT } from "../../../data/prompts/prompt-store.js";

/** The reloadable prompts (data packs); the server assembly provides its PromptStore here. */
export const PROMPT_SOURCE = ContextType.of<PromptSource>("system:prompt_source");

/** The built-in pack's react and web_search prompts, for an assembly that provides no PromptSource. */
export const builtinPrompts = (): PromptSource => {
  const read = (name: string): string =>
    readFileSync(join(BUILTIN_PACK_ROOT, "data", "system", "system", "prompts", `${name}.txt`), "utf8");
  return fixedPrompts({ react: read("react"), web_search: read("web_search") });
};
