// @jsprismarine/brigadier ships .d.ts files whose relative imports lack an
// extension. Under moduleResolution NodeNext TypeScript cannot follow them and
// every Brigadier type silently becomes `any`. This rewrites the specifiers to
// `./X.js` (which NodeNext maps to `./X.d.ts`). Idempotent; a no-op when absent.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const root = resolve("node_modules/@jsprismarine/brigadier/dist");
if (!existsSync(root)) process.exit(0);

let patched = 0;
const walk = (directory) => {
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith(".d.ts")) patch(path);
  }
};
const patch = (file) => {
  const text = readFileSync(file, "utf8");
  const next = text.replace(
    /(from\s+|import\()(['"])(\.{1,2}\/[^'"]+?)\2/g,
    (match, head, quote, specifier) => {
      if (specifier.endsWith(".js")) return match;
      const base = resolve(dirname(file), specifier);
      if (existsSync(`${base}.d.ts`)) return `${head}${quote}${specifier}.js${quote}`;
      if (existsSync(join(base, "index.d.ts"))) return `${head}${quote}${specifier}/index.js${quote}`;
      return match;
    },
  );
  if (next !== text) {
    writeFileSync(file, next);
    patched++;
  }
};
walk(root);
if (patched > 0) console.log(`patched ${patched} brigadier type files`);
