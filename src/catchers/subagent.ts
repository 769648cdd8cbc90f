import { usageError } from "../exits/errors.js";
import { currentTurnContext, runInTurnContext } from "../pipeline/turn-context.js";
import { splitPath } from "../trace/paths.js";

/**
 * Runs `fn` as the subagent at `path` (`"researcher"`, or `"researcher/assistant"`): every tool and model
 * call made inside it, awaited or not, carries that path, so stub rules such as `researcher/list_tasks` apply
 * and a root rule never matches the subagent's tool, also when root and subagent share the same tool objects.
 * Nested calls append to the path. A session enters a subagent's path by itself when the delegation tool named
 * like it (`researcher`, given `subagents: { researcher }`) runs, so `inSubagent` is needed only where the
 * subagent is started some other way. Outside a session's turn, it only runs `fn`.
 *
 * @example
 * ```ts
 * const researcher = tool({ inputSchema, execute: ({ question }) => inSubagent("researcher", () => generateText({ model, tools, prompt: question })) });
 * ```
 */
export function inSubagent<T>(path: string, fn: () => T): T {
  const parts = typeof path === "string" ? splitPath(path) : [];
  if (parts.length === 0)
    throw usageError(`inSubagent(path, fn): \`path\` must name the subagent, e.g. "researcher"; got ${JSON.stringify(path)}.`);
  if (typeof fn !== "function") throw usageError("inSubagent(path, fn): `fn` must be a function.");
  const context = currentTurnContext();
  if (context === undefined) return fn();
  // Already there: the session entered this path when the delegation tool of the same name ran.
  const current = context.path;
  if (current.length >= parts.length && parts.every((part, i) => current[current.length - parts.length + i] === part)) return fn();
  return runInTurnContext({ ...context, path: [...current, ...parts] }, fn);
}
