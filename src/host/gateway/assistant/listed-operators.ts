import { readFile } from "node:fs/promises";
import { SERVER_CONFIG, serverConfigPath } from "../../shared/server-config.js";

/**
 * The names in `ops` of `<dataDir>/config/system/server.json` (lower case), System's own operators behind the
 * gateway as in the embedded world. No file is no operators (the gateway never creates one); a file that is not
 * valid stops the start with a line naming it, as it stops the embedded world.
 */
export const listedOperators = async (dataDir: string): Promise<ReadonlySet<string>> => {
  const path = serverConfigPath(dataDir);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Set();
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not valid JSON; fix or remove it`);
  }
  const config = SERVER_CONFIG.decode(data);
  if (!config.success) throw new Error(`${path} is invalid (${config.error}); fix or remove it`);
  return new Set(config.value.ops.map((name) => name.toLowerCase()));
};
