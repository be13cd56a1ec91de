// Injected into the browser bundle of the web panel (scripts/build-panel.js): the shared protocol code uses Node's
// `Buffer`. esbuild rewrites every free `Buffer` to this export; setting the global covers any other reference.
// biome-ignore lint/style/useNodejsImportProtocol: the npm `buffer` package (node_modules/buffer), not Node's module
import { Buffer } from "buffer";

const scope = globalThis as { Buffer?: unknown };
scope.Buffer ??= Buffer;

export { Buffer };
