// The modules a source file loads by its static imports, transitively (type-only imports and `import()` left
// out): the build keeps what `import("tooltrace")` loads in one chunk.
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

const IMPORT = /^(?:import|export)(?!\s+type\b)[^;]*?\sfrom\s+"(\.{1,2}\/[^"]+)";|^import\s+"(\.{1,2}\/[^"]+)";/gms;

/** Every module `entry` loads statically, `entry` included, as absolute paths of .ts files. */
export function staticImports(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file) || !existsSync(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      visit(resolve(dirname(file), (match[1] ?? match[2]).replace(/\.js$/, ".ts")));
    }
  };
  visit(resolve(entry));
  return seen;
}
