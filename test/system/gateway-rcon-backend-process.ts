// A plain flying-squid backend with the RCON STAND-IN of the test support, in its own process, so a test can kill
// it as a crash would: `<port> <rcon port> <world folder> <password>` (ports 0: free ones). `save-all` writes the
// online players' data files into the world folder (flying-squid reads them at the next join). With
// SYSTEM_HOLD_SAVES=1 every `save-all` is held forever after printing `save-all held`: the moment to kill it.
import { startRconStandIn } from "../support/rcon-stand-in.js";
import { startPlainBackend } from "./gateway-support.js";

const [port = "0", rconPort = "0", worldFolder, password = "stand-in"] = process.argv.slice(2);
const backend = await startPlainBackend({
  port: Number(port),
  ...(worldFolder === undefined ? {} : { worldFolder }),
});
const standIn = await startRconStandIn({
  server: backend.server,
  password,
  port: Number(rconPort),
  ...(worldFolder === undefined ? {} : { worldFolder }),
});
if (process.env.SYSTEM_HOLD_SAVES === "1") {
  standIn.hold("save-all");
  const seen = standIn.commands.length;
  const timer = setInterval(() => {
    if (standIn.commands.slice(seen).some((line) => line.replace(/^minecraft:/, "") === "save-all")) {
      process.stdout.write("save-all held\n");
      clearInterval(timer);
    }
  }, 5);
}
process.stdout.write(`listening on 127.0.0.1:${backend.port} rcon ${standIn.port}\n`);
