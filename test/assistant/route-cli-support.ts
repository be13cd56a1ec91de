import { PassThrough, Readable } from "node:stream";
import { routeCommand } from "../../src/assistant/route-cli.js";

/** Runs `npx system route …` in process: the exit code and what it wrote (optionally fed stdin lines). */
export const runRoute = async (
  args: readonly string[],
  input?: string,
): Promise<{ code: number; out: string; err: string }> => {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks = { out: "", err: "" };
  out.on("data", (chunk: Buffer) => {
    chunks.out += chunk.toString("utf8");
  });
  err.on("data", (chunk: Buffer) => {
    chunks.err += chunk.toString("utf8");
  });
  const code = await routeCommand(args, {
    out,
    err,
    ...(input === undefined ? {} : { input: Readable.from([input]) }),
  });
  return { code, ...chunks };
};
