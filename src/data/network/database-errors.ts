/**
 * SQLSTATE classes and codes that say the database is unreachable for now rather than that a statement is wrong:
 * connection exceptions (08), a server shutting down or starting (57P01–57P03), and a crash-restart's
 * "terminating connection because of crash of another server process".
 */
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);
/** Socket errors of a connection that could not be made or was cut. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
]);
/** What `pg` says when the server closed a connection or a pool could not get one in time. */
const PG_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error/,
  // a client whose connection ended under a request (a restart cut it) and that a query still reached
  /^Client was closed and is not queryable/,
];

/**
 * Whether an error (or one of its causes) says the network's database cannot be reached right now: a request
 * that met it may work once the database is back, so the player is told to try again, not that something broke.
 */
export const isDatabaseUnavailable = (error: unknown): boolean => {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === "string" &&
      (SOCKET_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith("08"))
    )
      return true;
    if (PG_MESSAGES.some((pattern) => pattern.test(current instanceof Error ? current.message : "")))
      return true;
    // several attempts at once (a host name with two addresses): Node reports an AggregateError
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable)) return true;
    current = current.cause;
  }
  return false;
};
