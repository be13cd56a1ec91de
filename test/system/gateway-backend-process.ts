// A plain flying-squid backend in its own process (gateway tests kill it as a crash would).
import { startPlainBackend } from "./gateway-support.js";

const backend = await startPlainBackend({ port: Number(process.argv[2] ?? 0) });
process.stdout.write(`listening on 127.0.0.1:${backend.port}\n`);
