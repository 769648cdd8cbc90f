import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let found: string | undefined;

/**
 * The folder of this package (the nearest `package.json` named `tooltrace` above this file), wherever the
 * file lives: its sources, its build, or a chunk of the build.
 */
export function packageRoot(): string {
  if (found !== undefined) return found;
  const start = dirname(fileURLToPath(import.meta.url));
  let dir = start;
  for (let parent = dirname(dir); parent !== dir; dir = parent, parent = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "tooltrace") {
      found = dir;
      return dir;
    }
  }
  found = start;
  return start;
}

/** True when this code runs from the build (`dist/`), not from the TypeScript sources. */
export function runsFromBuild(): boolean {
  return fileURLToPath(import.meta.url).startsWith(join(packageRoot(), "dist"));
}

/** This package's version, from its package.json. */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version?: unknown };
  return typeof manifest.version === "string" ? manifest.version : "unknown";
}
