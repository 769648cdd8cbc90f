import { dirname, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** This package's own source folder (`src/`, or `dist/src/` when built), whose frames are never the user's. */
const OWN_ROOT = dirname(fileURLToPath(import.meta.url));

/**
 * The first stack frame outside tooltrace, node internals and node_modules: where the user called us,
 * so an error can say which line declared the broken rule.
 */
export function userCallSite(stack: string | undefined = new Error().stack): string | undefined {
  for (const line of (stack ?? "").split("\n").slice(1)) {
    const location = /\(?((?:file:\/\/)?\/[^()]+:\d+:\d+)\)?\s*$/.exec(line.trim())?.[1];
    if (location === undefined) continue;
    const path = location.startsWith("file://") ? fileURLToPath(location.replace(/:\d+:\d+$/, "")) : location.replace(/:\d+:\d+$/, "");
    if (path.startsWith(OWN_ROOT + sep) || path.includes(`${sep}node_modules${sep}`)) continue;
    return location.startsWith("file://") ? `${path}${location.slice(location.search(/:\d+:\d+$/))}` : location;
  }
  return undefined;
}
