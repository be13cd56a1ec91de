import { invalid, type Validation, valid } from "../../../util/validation.js";

/**
 * Checks for every argument System puts in an RCON command. Each admits only characters that cannot end an
 * argument or start another (no spaces, quotes, brackets or selectors), so text a player typed can never turn one
 * command into another: `Steve @a` or `minecraft:bread 1\nop x` is refused, not escaped.
 */

/** A Java Edition player name. */
export const PLAYER_NAME = /^[A-Za-z0-9_]{1,16}$/;
/** A namespaced item id (`minecraft:bread`, `create:wrench`); the namespace is required. */
export const ITEM_ID = /^[a-z0-9_.-]{1,64}:[a-z0-9_./-]{1,128}$/;
/** A scoreboard objective name (brigadier `word`), kept within the 16 characters older servers allow. */
export const OBJECTIVE_NAME = /^[A-Za-z0-9_.+-]{1,16}$/;
/** A scoreboard criterion (`dummy`, `minecraft.killed:minecraft.zombie`). */
export const CRITERION = /^[A-Za-z0-9_.:-]{1,128}$/;
/** An NBT path of names and list indexes (`Inventory`, `Health`, `Inventory[0].id`). */
export const NBT_PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d{1,4}\])*$/;

/** The most a give may ask for: vanilla refuses more than 100 stacks of 64. */
export const MAX_GIVE_COUNT = 6400;
/** The most a clear may remove. */
export const MAX_CLEAR_COUNT = 100_000;
/** The largest experience amount added at once (either sign). */
export const MAX_EXPERIENCE = 1_000_000;

export const checkPattern = (what: string, pattern: RegExp, value: unknown): Validation<string> =>
  typeof value === "string" && pattern.test(value)
    ? valid(value)
    : invalid(`${what} ${JSON.stringify(value)} is not a valid ${what} for an RCON command`);

export const checkInteger = (what: string, value: unknown, min: number, max: number): Validation<number> =>
  typeof value === "number" && Number.isInteger(value) && value >= min && value <= max
    ? valid(value)
    : invalid(`${what} ${JSON.stringify(value)} must be a whole number from ${min} to ${max}`);
