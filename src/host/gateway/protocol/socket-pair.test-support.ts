import { connect, createServer, type Socket } from "node:net";

/** Two ends of one real TCP connection on loopback (the server's end first). */
export const socketPair = (): Promise<[Socket, Socket]> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address() as { port: number };
      const outgoing = connect(address.port, "127.0.0.1");
      server.once("connection", (incoming) => {
        server.close();
        resolve([incoming, outgoing]);
      });
    });
  });

/** Resolves with the next `count` values `subscribe` delivers. */
export const collect = <T>(subscribe: (listener: (value: T) => void) => void, count: number): Promise<T[]> =>
  new Promise((resolve) => {
    const values: T[] = [];
    subscribe((value) => {
      values.push(value);
      if (values.length === count) resolve(values);
    });
  });
