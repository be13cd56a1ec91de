import { randomInt } from "node:crypto";
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { writeFileAtomic } from "../../util/atomic-file.js";
import { CorruptFileError } from "../../util/corrupt-file-error.js";

const VERIFIED = z.object({ version: z.literal(1), players: z.array(z.string().uuid()).max(10_000) });

/** Hosts a client on this machine uses: an offline-mode server there is as safe as the machine. */
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** Whether operators must prove who they are: offline mode (names are not authenticated) off loopback. */
export const verificationRequired = (options: {
  readonly host: string;
  readonly onlineMode: boolean;
}): boolean => !options.onlineMode && !LOOPBACK.has(options.host.toLowerCase());

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/**
 * Operator proof for an offline-mode server reachable from other machines: anyone may join under an
 * operator's name, so operator rights count only for players who typed the admin code printed on the server
 * console (`/system verify <code>`). Verified players are remembered by UUID in `<world>/system/verified-ops.json`.
 */
export class AdminVerification {
  readonly code: string;
  readonly #verified: Set<string>;

  private constructor(
    private readonly path: string,
    verified: readonly string[],
  ) {
    this.code = Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join("");
    this.#verified = new Set(verified);
  }

  /** Reads the verified players; a damaged file stops the start (naming it) rather than being replaced. */
  static async open(path: string): Promise<AdminVerification> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return new AdminVerification(path, []);
      throw error;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new CorruptFileError(path, `${path} is not valid JSON; fix or remove it`, { cause: error });
    }
    const parsed = VERIFIED.safeParse(data);
    if (!parsed.success)
      throw new CorruptFileError(
        path,
        `${path} is invalid (${parsed.error.issues[0]?.path.join(".")}); fix or remove it`,
      );
    return new AdminVerification(path, parsed.data.players);
  }

  isVerified(uuid: string): boolean {
    return this.#verified.has(uuid);
  }

  /** The player's operator level as System counts it: the game's level only once verified. */
  opLevel(uuid: string, gameLevel: number): number {
    return this.isVerified(uuid) ? gameLevel : 0;
  }

  /** Checks a code typed by a player; a right code is remembered (durably) for their UUID. */
  async verify(uuid: string, code: string): Promise<boolean> {
    if (code.trim().toUpperCase() !== this.code) return false;
    if (this.#verified.has(uuid)) return true;
    this.#verified.add(uuid);
    await writeFileAtomic(this.path, JSON.stringify({ version: 1, players: [...this.#verified] }, null, 2));
    return true;
  }
}
