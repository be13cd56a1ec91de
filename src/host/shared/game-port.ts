import { createServer } from "node:net";

/** A start that cannot go on, with the one line the command prints (no stack trace helps the admin). */
export class StartError extends Error {
  override readonly name = "StartError";
}

/**
 * The one line an admin reads when the game port cannot be bound: what happened and what to do, the same in both
 * hosts (`config` names where the port is set: `server.json` for the embedded world, `gateway.json`'s `listen`).
 */
export const gamePortLine = (
  address: { readonly host: string; readonly port: number },
  error: unknown,
  config: string,
): string => {
  const where = `${address.host}:${address.port}`;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === "EADDRINUSE")
    return `cannot listen on ${where}: the port is already in use (another server?); stop it, or start with --port N (0: any free port) or change ${config}`;
  if (code === "EACCES")
    return `cannot listen on ${where}: not allowed (ports under 1024 need privileges); start with --port N or change ${config}`;
  if (code === "EADDRNOTAVAIL")
    return `cannot listen on ${where}: this machine has no such address; change the host in ${config}`;
  return `cannot listen on ${where}: ${error instanceof Error ? error.message : String(error)}`;
};

/**
 * Binds the game port for a moment and lets it go, so a taken port stops the start in one line before anything
 * else is opened or announced (the panel, storage). Port 0 always succeeds. Throws a StartError.
 */
export const checkGamePort = (host: string, port: number, config: string): Promise<void> => {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error) => reject(new StartError(gamePortLine({ host, port }, error, config))));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
};
