import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { packageRoot } from "./package-root.js";

let ownRoots: readonly string[] | undefined;

/**
 * The folders of this package whose frames are never the user's: its sources, its build and its matchers.
 * Both the sources and the build count, since a stack mapped through source maps names the sources.
 */
function roots(): readonly string[] {
  ownRoots ??= ["src", "dist", "matchers"].map((folder) => join(packageRoot(), folder) + sep);
  return ownRoots;
}

/**
 * The first stack frame outside tooltrace, node internals and node_modules: where the user called us,
 * so an error can say which line declared the broken rule.
 */
export function userCallSite(stack: string | undefined = new Error().stack): string | undefined {
  for (const line of (stack ?? "").split("\n").slice(1)) {
    const location = /\(?((?:file:\/\/)?\/[^()]+:\d+:\d+)\)?\s*$/.exec(line.trim())?.[1];
    if (location === undefined) continue;
    const path = location.startsWith("file://") ? fileURLToPath(location.replace(/:\d+:\d+$/, "")) : location.replace(/:\d+:\d+$/, "");
    if (roots().some((root) => path.startsWith(root)) || path.includes(`${sep}node_modules${sep}`)) continue;
    return location.startsWith("file://") ? `${path}${location.slice(location.search(/:\d+:\d+$/))}` : location;
  }
  return undefined;
}
