import { compileMatchProgram, type MatchProgram } from "./match-program.js";
import type { ToolStubMatch } from "./types.js";

/** Compiled programs by the JSON of their `match`, shared by every session; past the bound the least recently used goes. */
const programs = new Map<string, MatchProgram>();
const MAX_PROGRAMS = 1000;
const ANY_INPUT: MatchProgram = [];

/**
 * Compiles a validated `match` once per distinct `match` in the process (sessions that share fixtures
 * share programs, and the cache is bounded); `undefined` or `{}` matches any input.
 */
export function compileMatch(match: ToolStubMatch | undefined): MatchProgram {
  if (match === undefined || Object.keys(match).length === 0) return ANY_INPUT;
  const key = JSON.stringify(match);
  let program = programs.get(key);
  if (program === undefined) {
    program = compileMatchProgram(match);
    if (programs.size >= MAX_PROGRAMS) programs.delete(programs.keys().next().value as string);
  } else {
    programs.delete(key);
  }
  programs.set(key, program);
  return program;
}

/** How many compiled programs the cache holds (for the benchmarks' check that it stays bounded). */
export function cachedProgramCount(): number {
  return programs.size;
}
