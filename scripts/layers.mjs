// The layers of tooltrace's sources, bottom up: a file may import its own folder and the folders below it,
// never one above (ARCHITECTURE.md draws them). `node scripts/layers.mjs` lists every import that runs
// uphill; the layering test runs the same check.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** Each folder's place, lowest first. */
export const LAYERS = [
  ["src/base"],
  ["src/secrets"],
  ["src/exits"],
  ["src/trace"],
  ["src/faults"],
  ["src/stubs"],
  ["src/http-mocks"],
  ["src/model"],
  ["matchers"],
  ["src/cassettes"],
  ["src/wire"],
  ["src/middleware"],
  ["src/pipeline"],
  ["src/lifecycle"],
  ["src/edges"],
  ["src/catchers"],
  ["src/session"],
  ["src/variants", "src/agents", "src/cli", "src/server", "src/judges", "src/inline"],
  ["src/evals"],
  ["src/report", "src/init"],
  ["src/vitest", "src/jest", "src/entries", "src/index.ts"],
];

function rankOf(file) {
  for (const [rank, folders] of LAYERS.entries()) {
    if (folders.some((folder) => file === folder || file.startsWith(`${folder}/`))) return rank;
  }
  return undefined;
}

function folderOf(file) {
  for (const folders of LAYERS) for (const folder of folders) if (file === folder || file.startsWith(`${folder}/`)) return folder;
  return undefined;
}

function walk(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (path.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** Every import from a file to a file of a higher layer, or to a folder of its own layer: `from -> to`. */
export function uphillImports(root) {
  const files = [...walk(join(root, "src")), ...walk(join(root, "matchers"))];
  const found = [];
  for (const file of files) {
    const from = relative(root, file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?from\s+"(\.[^"]+)"|reference path="(\.[^"]+)"/g)) {
      const specifier = match[1] ?? match[2];
      const to = relative(root, resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      const a = rankOf(from);
      const b = rankOf(to);
      if (a === undefined || b === undefined) {
        found.push(`${from} -> ${to} (a folder with no layer)`);
        continue;
      }
      // The entries at the top are thin and may refer to each other (the type augmentation they all carry).
      const sideways = b === a && folderOf(from) !== folderOf(to) && a !== LAYERS.length - 1;
      if (b > a || sideways) found.push(`${from} -> ${to}`);
    }
  }
  return found;
}

/**
 * What writes a file or prints, by its call. Only src/exits may: everything else hands its bytes to an exit
 * there, which redacts and escapes them (src/exits/registry.ts lists each one).
 */
const BYPASSES = [
  [/\b(?:writeFileSync|appendFileSync|writeSync|writevSync|createWriteStream)\b/, "writes a file"],
  [/\b(?:writeFile|appendFile)\s*\(/, "writes a file"],
  [/\bwriteAtomically\b/, "writes a file"],
  [/\bprocess\.(?:stdout|stderr)\.write\b/, "prints"],
  [/\bconsole\.(?:log|warn|error|info|debug|trace)\b/, "prints"],
];

/** Every file outside src/exits that writes a file or prints, with the line: `file:line: what`. */
export function exitsBypassed(root) {
  const files = [...walk(join(root, "src")), ...walk(join(root, "matchers"))];
  const found = [];
  for (const file of files) {
    const from = relative(root, file);
    if (from.startsWith("src/exits/") || from.endsWith(".d.ts")) continue;
    const lines = readFileSync(file, "utf8").split("\n");
    for (const [index, line] of lines.entries()) {
      const code = line.replace(/\/\/.*$/, "").replace(/^\s*(?:\/\*\*?|\*).*$/, "");
      for (const [pattern, what] of BYPASSES) if (pattern.test(code)) found.push(`${from}:${index + 1}: ${what} outside src/exits`);
      // What a test hands its reporters (task.meta) is runner-bound: an assignment to it goes through outValue.
      if (/\.meta(?:\??\.\w+|\[[^\]]+\])+\)?\s*(?:\?\?)?=(?![=>])/.test(code) && !code.includes("outValue("))
        found.push(`${from}:${index + 1}: sets task.meta outside outValue`);
    }
  }
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = [...uphillImports(process.cwd()), ...exitsBypassed(process.cwd())];
  console.log(found.length === 0 ? "every import runs downhill, and every byte leaves through src/exits" : found.join("\n"));
  process.exitCode = found.length === 0 ? 0 : 1;
}
