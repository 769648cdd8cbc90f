import { TooltraceError } from "../exits/errors.js";
import type { Middleware } from "./types.js";

const PHASES = ["beforeEval", "onToolCall", "afterEval"] as const;

/**
 * The middleware list as given to a session (the plugin's first, then the session's), checked: each is an
 * object with a non-empty, unique `name` and only functions as phases.
 */
export function checkMiddleware(lists: readonly (readonly unknown[] | undefined)[]): readonly Middleware[] {
  const all: Middleware[] = [];
  const names = new Set<string>();
  for (const list of lists) {
    if (list === undefined) continue;
    if (!Array.isArray(list))
      throw new TooltraceError("`middleware` must be an array of middleware objects ({ name, beforeEval?, onToolCall?, afterEval? }).");
    for (const [index, value] of list.entries()) {
      const where = `middleware[${index}]`;
      if (value === null || typeof value !== "object")
        throw new TooltraceError(
          `${where} must be an object { name, beforeEval?, onToolCall?, afterEval? }, got ${value === null ? "null" : typeof value}.`,
        );
      const middleware = value as Middleware;
      if (typeof middleware.name !== "string" || middleware.name === "")
        throw new TooltraceError(`${where} needs a \`name\`: a non-empty string, unique in the session.`);
      if (names.has(middleware.name))
        throw new TooltraceError(
          `two middleware are named "${middleware.name}"; names must be unique in a session (the run's and the session's together).`,
        );
      names.add(middleware.name);
      for (const phase of PHASES) {
        const fn = (middleware as unknown as Record<string, unknown>)[phase];
        if (fn !== undefined && typeof fn !== "function")
          throw new TooltraceError(`middleware "${middleware.name}": \`${phase}\` must be a function, got ${typeof fn}.`);
      }
      if (PHASES.every((phase) => middleware[phase] === undefined))
        throw new TooltraceError(`middleware "${middleware.name}" has no phase: give it beforeEval, onToolCall or afterEval.`);
      all.push(middleware);
    }
  }
  return all;
}
