import { inspect } from "node:util";

/**
 * A file System refuses to use because it is damaged, truncated or invalid. The message names the file and
 * what is wrong; the file itself was left as it was (or moved aside, as the message says), never replaced.
 */
export class CorruptFileError extends Error {
  constructor(
    /** The file that could not be used. */
    readonly path: string,
    message: string,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
    this.name = "CorruptFileError";
  }

  /** Logged as its message alone: an admin needs the file and the problem, not a stack trace. */
  [inspect.custom](): string {
    return this.message;
  }
}
