import type { CommandRegistry } from "./command-registry.js";
import type { CommandIdentity } from "./command-source.js";

/** One module's lines in help: its usable aliases with their usage. */
export interface HelpEntry {
  readonly moduleId: string;
  /** English one-liner from the module declaration. */
  readonly description: string;
  /** `/system item <query>`-style lines, one per usable alias. */
  readonly usages: readonly string[];
}

/**
 * Help generated from the same command tree that parses: a player sees only commands whose `requires` they
 * pass (enabled features, permission level); modules that are not installed never registered any.
 */
export const commandHelp = (
  commands: CommandRegistry,
  identity: CommandIdentity,
  root = "system",
): HelpEntry[] => {
  const entries = new Map<string, { description: string; usages: string[] }>();
  for (const [alias, module] of commands.aliases()) {
    const usage = commands.usage(alias, identity);
    if (usage === undefined) continue;
    const id = module.id.toString();
    const entry = entries.get(id) ?? { description: module.description, usages: [] };
    entry.usages.push(`/${root} ${usage}`);
    entries.set(id, entry);
  }
  return [...entries].map(([moduleId, entry]) => ({ moduleId, ...entry }));
};
