// tsc does not emit handwritten declaration files (`src/**/*.d.ts`: the matchers' type augmentations), and
// it writes the entries' `/// <reference path>` to them as paths into `src/`. Copy them beside the build
// and point the references at the copies, so the package's types never reach into its TypeScript sources.
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = join(import.meta.dirname, "..");
const dist = join(root, "dist", "types");

function walk(dir, visit) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, visit);
    else visit(path);
  }
}

walk(join(root, "src"), (path) => {
  if (path.endsWith(".d.ts")) cpSync(path, join(dist, relative(root, path)));
});

walk(dist, (path) => {
  if (!path.endsWith(".d.ts")) return;
  const text = readFileSync(path, "utf8");
  const fixed = text.replace(/^\/\/\/ <reference path="([^"]+)"/gm, (line, target) => {
    const absolute = resolve(dirname(path), target);
    if (!absolute.startsWith(join(root, "src"))) return line;
    let local = relative(dirname(path), join(dist, relative(root, absolute)))
      .split("\\")
      .join("/");
    if (!local.startsWith(".")) local = `./${local}`;
    return `/// <reference path="${local}"`;
  });
  if (fixed !== text) writeFileSync(path, fixed);
});
