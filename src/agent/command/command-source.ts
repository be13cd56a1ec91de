/** Who runs a command: the standing that `requires` predicates and completions are checked against. */
export interface CommandIdentity {
  readonly playerId: string;
  /** The platform permission level (0 player … 4 owner); custom `requires` predicates read it. */
  readonly permissionLevel: number;
  /** Features (ServerModule ids) enabled for this player now; a module's nodes need its owner here. */
  readonly features: ReadonlySet<string>;
  /** The player's language (`zh_cn`), for argument suggestions in it; English when unknown. */
  readonly locale?: string | undefined;
}

/**
 * The Brigadier source of the agent's command tree. A command callback only hands its typed input (or an
 * AgentAction) to `action`; nothing runs at parse time, and the registry checks ownership and codec afterwards.
 */
export interface CommandSource extends CommandIdentity {
  action(input: unknown): void;
}

/** A source that records what the callbacks handed over, for one parse. */
export class RecordingCommandSource implements CommandSource {
  readonly playerId: string;
  readonly permissionLevel: number;
  readonly features: ReadonlySet<string>;
  readonly locale: string | undefined;
  readonly emitted: unknown[] = [];

  constructor(identity: CommandIdentity) {
    this.playerId = identity.playerId;
    this.permissionLevel = identity.permissionLevel;
    this.features = identity.features;
    this.locale = identity.locale;
  }

  action(input: unknown): void {
    this.emitted.push(input);
  }
}
