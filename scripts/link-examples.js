// Installs the example extensions' local dependencies offline: each `"<name>": "file:<path>"` dependency of an
// `examples/*/package.json` becomes the symlink `examples/<example>/node_modules/<name>` → <path>, as `npm install`
// in that folder would make it (System itself is `"system": "file:../.."`). Idempotent; run by postinstall and
// before the type check of `npm test`, and imported by the example's test.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Links every example's `file:` dependencies; returns the links it made or found. */
export const linkExamples = (root = ROOT) => {
  const examples = join(root, "examples");
  if (!existsSync(examples)) return [];
  const links = [];
  for (const name of readdirSync(examples)) {
    const manifest = join(examples, name, "package.json");
    if (!existsSync(manifest)) continue;
    const { dependencies = {} } = JSON.parse(readFileSync(manifest, "utf8"));
    for (const [dependency, spec] of Object.entries(dependencies)) {
      if (typeof spec !== "string" || !spec.startsWith("file:")) continue;
      const link = join(examples, name, "node_modules", dependency);
      const target = relative(dirname(link), resolve(examples, name, spec.slice("file:".length)));
      const current = lstatSync(link, { throwIfNoEntry: false });
      if (current?.isSymbolicLink() && readlinkSync(link) === target) {
        links.push(link);
        continue;
      }
      if (current !== undefined) rmSync(link, { recursive: true, force: true });
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(target, link, "dir");
      links.push(link);
    }
  }
  return links;
};

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  linkExamples();
