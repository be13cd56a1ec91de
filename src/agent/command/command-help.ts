import type { CommandRegistry } from "./command-registry.js";
import type { CommandIdentity } from "./command-source.js";

/** One module's lines in help: its usable aliases with their usage. */
export interface HelpEntry {
  readonly moduleId: string;
  /** English one-liner from the module declaration. */
  readonly description: string;
  /** `/system item <query>`-style lines: every form of every usable alias. */
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
    const forms = commands.usages(alias, identity);
    if (forms.length === 0) continue;
    const id = module.id.toString();
    const entry = entries.get(id) ?? { description: module.description, usages: [] };
    for (const form of forms) entry.usages.push(`/${root} ${form}`);
    entries.set(id, entry);
  }
  return [...entries].map(([moduleId, entry]) => ({ moduleId, ...entry }));
};
