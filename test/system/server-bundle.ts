import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

/**
 * The server of the kill loops as ONE prebuilt file: `src/main.ts` bundled by esbuild (a dependency of tsx and
 * vite) into a temp folder once per test file, so that each of a loop's cold starts loads plain JavaScript
 * instead of compiling the TypeScript sources again with tsx. It runs exactly what `npm start` runs.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BUILTINS = new Set(builtinModules);
const SKIP = "system-bundle:resolving";

/** The entry: `startServer` of src/main.ts with main's own failure line and exit code. */
const ENTRY = [
  'import { startServer } from "./src/main.ts";',
  "startServer(process.argv.slice(2)).catch((error) => {",
  '  console.error("System failed to start: " + (error instanceof Error ? error.message : String(error)));',
  "  process.exit(1);",
  "});",
].join("\n");

/**
 * Packages stay where they are installed (imported by absolute path, native modules included); each source
 * file keeps its own `import.meta.url`, so the paths it resolves from its location (resources, `createRequire`)
 * are the ones it resolves under tsx.
 */
const inPlace: Plugin = {
  name: "system-in-place",
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === SKIP) return undefined;
      if (args.path.startsWith("node:") || BUILTINS.has(args.path))
        return { path: args.path, external: true };
      const resolved = await builder.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: SKIP,
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.path, external: true };
    });
    builder.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, "utf8").replaceAll(
        "import.meta.url",
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: "ts",
    }));
  },
};

let bundle: Promise<string> | undefined;

/** The bundled server (built on the first call of this test file; removed when the process exits). */
export const serverBundle = (): Promise<string> => {
  bundle ??= (async () => {
    const folder = mkdtempSync(join(tmpdir(), "system-server-bundle-"));
    process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
    const outfile = join(folder, "server.mjs");
    await build({
      stdin: { contents: ENTRY, resolveDir: ROOT, loader: "ts", sourcefile: "server-entry.ts" },
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      // as Node resolves packages: without esbuild's default "module" condition, which picks builds that only a
      // bundler can load (@opentelemetry/api's build/esm imports its files without extensions)
      conditions: ["node"],
      outfile,
      logLevel: "warning",
      plugins: [inPlace],
    });
    return outfile;
  })();
  return bundle;
};
