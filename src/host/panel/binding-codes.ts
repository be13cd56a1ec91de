import { randomInt } from "node:crypto";

/** Letters and digits a player cannot confuse (no 0/O, 1/I/L). */
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const CODE_LENGTH = 8;

export interface BindingCodeOptions {
  readonly now: () => number;
  /** How long a code may be used (default 5 minutes). */
  readonly ttlMillis?: number;
  /** Wrong codes from one client before it is locked out (default 5). */
  readonly maxFailures?: number;
  /** How long a locked-out client waits (default 10 minutes). */
  readonly lockMillis?: number;
}

export type Redemption =
  | { readonly kind: "bound"; readonly playerId: string }
  | { readonly kind: "wrong" }
  | { readonly kind: "locked"; readonly retryAfterMillis: number };

/**
 * One-time binding codes: `/system bind` issues one per player (a new one replaces the old), usable once within
 * its time. Wrong codes are counted per client address; after `maxFailures` the client is locked out for a while,
 * right codes included, so 40-bit codes cannot be guessed.
 */
export class BindingCodes {
  readonly #codes = new Map<string, { playerId: string; expires: number }>();
  readonly #failures = new Map<string, { count: number; lockedUntil: number }>();

  constructor(private readonly options: BindingCodeOptions) {}

  get ttlMillis(): number {
    return this.options.ttlMillis ?? 5 * 60_000;
  }

  issue(playerId: string): string {
    this.#sweep();
    for (const [code, entry] of this.#codes) if (entry.playerId === playerId) this.#codes.delete(code);
    let code = "";
    do {
      code = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    } while (this.#codes.has(code));
    this.#codes.set(code, { playerId, expires: this.options.now() + this.ttlMillis });
    return code;
  }

  redeem(typed: string, client: string): Redemption {
    const now = this.options.now();
    const failures = this.#failures.get(client);
    if (failures !== undefined && failures.lockedUntil > now)
      return { kind: "locked", retryAfterMillis: failures.lockedUntil - now };
    const code = typed.toUpperCase().replace(/[\s-]/gu, "");
    const entry = this.#codes.get(code);
    if (entry === undefined || entry.expires <= now) {
      const count = (failures?.lockedUntil ?? 0) > now ? 0 : (failures?.count ?? 0) + 1;
      const locked = count >= (this.options.maxFailures ?? 5);
      this.#failures.set(client, {
        count: locked ? 0 : count,
        lockedUntil: locked ? now + (this.options.lockMillis ?? 10 * 60_000) : 0,
      });
      return locked
        ? { kind: "locked", retryAfterMillis: this.options.lockMillis ?? 10 * 60_000 }
        : { kind: "wrong" };
    }
    this.#codes.delete(code);
    this.#failures.delete(client);
    return { kind: "bound", playerId: entry.playerId };
  }

  #sweep(): void {
    const now = this.options.now();
    for (const [code, entry] of this.#codes) if (entry.expires <= now) this.#codes.delete(code);
  }
}
