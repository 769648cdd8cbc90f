import { cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");

/**
 * A user's project in a temporary folder (`tooltrace-bench-<name>-...`) with the built package installed (copied,
 * as npm would) and this checkout's dependencies beside it. Returns the project's folder.
 */
export function projectWithBuiltPackage(name: string): string {
  const folder = mkdtempSync(join(tmpdir(), `tooltrace-bench-${name}-`));
  const modules = join(folder, "node_modules");
  mkdirSync(join(modules, "tooltrace"), { recursive: true });
  cpSync(join(root, "dist"), join(modules, "tooltrace", "dist"), { recursive: true });
  cpSync(join(root, "package.json"), join(modules, "tooltrace", "package.json"));
  for (const entry of readdirSync(join(root, "node_modules")))
    if (entry !== "tooltrace" && !entry.startsWith(".")) symlinkSync(join(root, "node_modules", entry), join(modules, entry), "dir");
  return folder;
}
