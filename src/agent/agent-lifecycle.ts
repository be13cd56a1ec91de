/**
 * Hooks a feature implements to clean its own caches when a player's standing changes.
 * The engine calls every registered hook; a hook that throws never stops the others.
 */
export interface AgentLifecycle {
  /** The player's AI access was revoked or reset: drop everything derived from their data. */
  onRevoke?(playerId: string): void | Promise<void>;
  /** An admin reset the player (their data and settings are forgotten); fired before `onRevoke`. */
  onReset?(playerId: string): void | Promise<void>;
  /** The player joined and their files are loaded, before their waiting event tasks resume. */
  onJoin?(playerId: string): void | Promise<void>;
  /** The player left the server. */
  onDisconnect?(playerId: string): void | Promise<void>;
  /** The player's permissions or enabled features changed. */
  onPermissionChange?(playerId: string): void | Promise<void>;
}

type Hook = keyof AgentLifecycle;

/** Fans lifecycle events out to every registered hook, isolating failures. */
export class AgentLifecycles {
  readonly #hooks: AgentLifecycle[] = [];

  constructor(private readonly onError: (hook: Hook, error: unknown) => void = () => {}) {}

  register(hook: AgentLifecycle): void {
    this.#hooks.push(hook);
  }

  async revoke(playerId: string): Promise<void> {
    await this.#fire("onRevoke", playerId);
  }

  async reset(playerId: string): Promise<void> {
    await this.#fire("onReset", playerId);
  }

  async join(playerId: string): Promise<void> {
    await this.#fire("onJoin", playerId);
  }

  async disconnect(playerId: string): Promise<void> {
    await this.#fire("onDisconnect", playerId);
  }

  async permissionChange(playerId: string): Promise<void> {
    await this.#fire("onPermissionChange", playerId);
  }

  async #fire(hook: Hook, playerId: string): Promise<void> {
    for (const entry of this.#hooks) {
      try {
        await entry[hook]?.(playerId);
      } catch (error) {
        this.onError(hook, error);
      }
    }
  }
}
