export { AgentCommand, type ArgumentParser, type CommandNodeFactory } from "./agent-command.js";
export { CommandArguments } from "./command-arguments.js";
export { commandHelp, type HelpEntry } from "./command-help.js";
export {
  type CommandOutcome,
  CommandRegistry,
  type CommandTreeNode,
  usageFailure,
} from "./command-registry.js";
export { type CommandIdentity, type CommandSource, RecordingCommandSource } from "./command-source.js";
export { type CommandText, splitCommandText } from "./command-text.js";
export { IdentifierArgumentType } from "./identifier-argument.js";
