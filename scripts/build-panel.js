// Builds the web panel's browser bundle, resources/panel/panel.js, from src/host/panel/client/panel-app.ts.
// The output is deterministic (no timestamps, no absolute paths), so a test can compare the committed bundle with
// `await buildPanel({ write: false })`. Run: `npm run build:panel`.
import { writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const client = join(root, "src/host/panel/client");
const shims = join(client, "shims");

export const PANEL_ENTRY = join(client, "panel-app.ts");
export const PANEL_BUNDLE = join(root, "resources/panel/panel.js");
export const ADMIN_ENTRY = join(client, "admin-app.ts");
export const ADMIN_BUNDLE = join(root, "resources/panel/admin.js");

/** Node modules the shared code imports, and the small browser shims that stand in for them. */
const NODE_SHIMS = {
  "node:crypto": join(shims, "crypto.ts"),
  "node:fs": join(shims, "fs.ts"),
  "node:path": join(shims, "path.ts"),
};

/** Maps `node:*` imports to their shims (an unknown one fails the build) and trims zod's locale index. */
const panelShims = {
  name: "panel-shims",
  setup(builder) {
    builder.onResolve({ filter: /^node:/ }, (args) => {
      const path = NODE_SHIMS[args.path];
      if (path !== undefined) return { path };
      const from = relative(root, args.importer);
      return { errors: [{ text: `no browser shim for ${args.path} (imported by ${from})` }] };
    });
    // zod's classic API re-exports ~60 error-message locales as `z.locales`; the panel needs none of them.
    builder.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${join("node_modules", "zod")}`)
        ? { path: join(shims, "zod-locales.ts") }
        : undefined,
    );
  },
};

/**
 * Bundles the panel and returns its text; `write` also saves it to resources/panel/panel.js. With `report`, prints
 * the size and the largest inputs.
 */
export const buildPanel = async ({
  write = false,
  report = false,
  entry = PANEL_ENTRY,
  bundle = PANEL_BUNDLE,
} = {}) => {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    legalComments: "eof",
    inject: [join(shims, "buffer-global.ts")],
    plugins: [panelShims],
    metafile: true,
    write: false,
    outfile: bundle,
    logLevel: "warning",
  });
  const inputs = Object.keys(result.metafile.inputs);
  const leftover = inputs.filter((input) => input.startsWith("node:") || input.includes("(disabled)"));
  if (leftover.length > 0) throw new Error(`the panel bundle still imports ${leftover.join(", ")}`);
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error("esbuild produced no output");
  const text = output.text;
  if (write) writeFileSync(bundle, text);
  if (report) {
    const [meta] = Object.values(result.metafile.outputs);
    const largest = Object.entries(meta?.inputs ?? {})
      .sort(([, a], [, b]) => b.bytesInOutput - a.bytesInOutput)
      .slice(0, 8);
    console.log(`${relative(root, bundle)}: ${output.contents.length} bytes from ${inputs.length} modules`);
    for (const [input, { bytesInOutput }] of largest)
      console.log(`  ${String(bytesInOutput).padStart(7)}  ${input}`);
  }
  return text;
};

/** The operators' page charts (resources/panel/admin.js), built the same way. */
export const buildAdmin = (options = {}) =>
  buildPanel({ ...options, entry: ADMIN_ENTRY, bundle: ADMIN_BUNDLE });

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildPanel({ write: true, report: true });
  await buildAdmin({ write: true, report: true });
}
