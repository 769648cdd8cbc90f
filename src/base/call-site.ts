import { realpathSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { packageRoot } from "./package-root.js";

let ownRoots: readonly string[] | undefined;

/**
 * The folders of this package whose frames are never the user's: its sources, its build and its matchers.
 * Both the sources and the build count, since a stack mapped through source maps names the sources.
 */
function roots(): readonly string[] {
  ownRoots ??= [...new Set([packageRoot(), real(packageRoot())])].flatMap((root) =>
    ["src", "dist", "matchers"].map((folder) => join(root, folder) + sep),
  );
  return ownRoots;
}

const realPaths = new Map<string, string>();

/** A path with `..` resolved and symlinks followed (a linked checkout, a source-mapped `dist/chunks/../../src`). */
function real(path: string): string {
  let found = realPaths.get(path);
  if (found === undefined) {
    found = realOf(resolve(path));
    if (realPaths.size < 1000) realPaths.set(path, found);
  }
  return found;
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
    if (notTheUsers(path)) continue;
    return location.startsWith("file://") ? `${path}${location.slice(location.search(/:\d+:\d+$/))}` : location;
  }
  return undefined;
}

/** A file of tooltrace's own, of a dependency, or of Node's (its bundled undici reports `/deps/undici/undici`). */
function notTheUsers(path: string): boolean {
  const own = (candidate: string) => roots().some((root) => candidate.startsWith(root));
  return path.startsWith(`${sep}deps${sep}`) || own(resolve(path)) || own(real(path)) || path.includes(`${sep}node_modules${sep}`);
}

/**
 * The user's frame of the stack here, kept as V8's call site and formatted (through the runner's
 * `Error.prepareStackTrace`, so through the test file's source map) only when asked: Vitest maps every frame
 * it formats, and mapping a frame decodes its file's source map, a one-off of tens of megabytes and
 * milliseconds for a large test file that a passing test never needs. Returns a function giving
 * `file:line:column`, or `undefined` when no frame is the user's.
 */
export function captureUserFrame(): (() => string | undefined) | undefined {
  // The user's frame is almost always among the first few: capture few, and more only when it is not.
  const site = userSiteWithin(8) ?? userSiteWithin(50);
  if (site === undefined) return undefined;
  let formatted: string | undefined;
  return () => {
    if (formatted !== undefined) return formatted;
    const format = Error.prepareStackTrace;
    const stack: unknown = format ? format(new Error("call site"), [site]) : `Error\n    at ${site.toString()}`;
    formatted = userCallSite(typeof stack === "string" ? stack : undefined);
    return formatted;
  };
}

const verdicts = new Map<string, boolean>();

/** Whether a frame's file is the user's, remembered by the name V8 gives it (a test makes many sessions). */
function usersFile(file: string): boolean {
  let verdict = verdicts.get(file);
  if (verdict === undefined) {
    verdict = !file.startsWith("node:") && !notTheUsers(file.startsWith("file://") ? fileURLToPath(file) : file);
    if (verdicts.size < 1000) verdicts.set(file, verdict);
  }
  return verdict;
}

/** The first of the `limit` innermost call sites here whose file is the user's. */
function userSiteWithin(limit: number): NodeJS.CallSite | undefined {
  const prepare = Error.prepareStackTrace;
  const before = Error.stackTraceLimit;
  let picked: NodeJS.CallSite | undefined;
  Error.stackTraceLimit = limit;
  Error.prepareStackTrace = (_error, sites) => {
    picked = sites.find((site) => {
      const file = site.getFileName();
      return file !== undefined && file !== null && usersFile(file);
    });
    return "";
  };
  try {
    const holder: { stack?: string } = {};
    Error.captureStackTrace(holder, userSiteWithin);
    void holder.stack;
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = before;
  }
  return picked;
}

/** The real path of `path`, or of its nearest folder that exists followed by the rest. */
function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realOf(parent), basename(path));
  }
}

/**
 * `stack` without the frames of tooltrace's own files: what a user sees of an error tooltrace throws is the
 * message and where their code called it (a dependency's frames between stay: they are part of the story).
 * At most `limit` frames are kept.
 */
export function withoutOwnFrames(stack: string | undefined, limit = Number.POSITIVE_INFINITY): string | undefined {
  if (stack === undefined || !stack.includes("\n    at ")) return stack;
  let frames = 0;
  return stack
    .split("\n")
    .filter((line) => !/^\s+at /.test(line) || (!ownFrame(line) && ++frames <= limit))
    .join("\n");
}

function ownFrame(line: string): boolean {
  // A builtin's own frame (`Array.map`) between tooltrace's says nothing either.
  if (/^\s+at .*\(<anonymous>\)$/.test(line)) return true;
  const location = /^\s+at .*?\(?((?:file:\/\/)?\/[^()]+):\d+:\d+\)?\s*$/.exec(line)?.[1];
  if (location === undefined) return false;
  const path = location.startsWith("file://") ? fileURLToPath(location) : location;
  return roots().some((root) => path.startsWith(root));
}
