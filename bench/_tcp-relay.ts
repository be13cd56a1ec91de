/**
 * The floor of any proxy, for bench/gateway.ts: a bare TCP relay in its own process that pipes bytes both ways
 * to `127.0.0.1:<port given>` without reading them. Prints `listening on 127.0.0.1:PORT` like the gateway.
 */
import { connect, createServer } from "node:net";

const backendPort = Number(process.argv[2]);
const server = createServer((client) => {
  client.setNoDelay(true);
  const backend = connect(backendPort, "127.0.0.1");
  backend.setNoDelay(true);
  client.on("data", (chunk) => backend.write(chunk));
  backend.on("data", (chunk) => client.write(chunk));
  for (const [one, other] of [
    [client, backend],
    [backend, client],
  ] as const) {
    one.on("close", () => other.destroy());
    one.on("error", () => other.destroy());
  }
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (typeof address === "object" && address !== null) console.log(`listening on 127.0.0.1:${address.port}`);
});
process.on("SIGTERM", () => process.exit(0));
