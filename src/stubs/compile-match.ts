import { BoundedCache } from "../base/bounded-cache.js";
import { compileMatchProgram, type MatchProgram } from "./match-program.js";
import type { ToolStubMatch } from "./types.js";

/** Compiled programs by the JSON of their `match`, shared by every session. */
const programs = new BoundedCache<string, MatchProgram>(1000);
const ANY_INPUT: MatchProgram = [];

/**
 * Compiles a validated `match` once per distinct `match` in the process (sessions that share fixtures
 * share programs, and the cache is bounded); `undefined` or `{}` matches any input.
 */
export function compileMatch(match: ToolStubMatch | undefined): MatchProgram {
  if (match === undefined || Object.keys(match).length === 0) return ANY_INPUT;
  return programs.getOrCreate(JSON.stringify(match), () => compileMatchProgram(match));
}
