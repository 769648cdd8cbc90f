/**
 * `@openai/agents` as a test file's agent imports it under tooltrace's plugin: the OpenAI Agents SDK, whose
 * `tool()` makes tools that join a running session at their first call, so stub rules answer them and strict
 * mode holds wherever the agent defines them.
 *
 * @module tooltrace/inline/agents-sdk
 */
import * as agents from "@openai/agents";
import { followingHandoffs, type HandoffEmitter } from "../catchers/handoff-paths.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import { adoptInline, markInlineLibrary } from "./adopt-inline.js";

export * from "@openai/agents";

type Invoke = (this: unknown, ...args: unknown[]) => unknown;
interface AgentLike {
  readonly tools?: readonly unknown[];
  handoffs?: unknown[];
}
interface HandoffLike {
  readonly toolName: string;
  readonly agent: AgentLike;
}

/**
 * Hands the running session an agent's tools and handoffs, and those of every agent it can hand off to: an agent
 * listed in `handoffs` is replaced there by the SDK's own `handoff(agent)` (what the SDK makes of it on every run
 * anyway), so the transfer is caught and traced as a call of `transfer_to_<agent>`.
 */
function adoptAgentGraph(agent: unknown): void {
  const seen = new Set<unknown>();
  const queue = [agent as AgentLike];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (seen.has(next) || next === null || typeof next !== "object") continue;
    seen.add(next);
    if (Array.isArray(next.tools) && next.tools.length > 0) adoptInline([...next.tools], "an Agents SDK agent's tools");
    if (!Array.isArray(next.handoffs) || next.handoffs.length === 0) continue;
    next.handoffs = next.handoffs.map((entry) => (entry instanceof agents.Handoff ? entry : agents.handoff(entry as never)));
    const handoffs = next.handoffs as HandoffLike[];
    adoptInline(Object.fromEntries(handoffs.map((entry) => [entry.toolName, entry])), "an Agents SDK agent's handoffs");
    queue.push(...handoffs.map((entry) => entry.agent));
  }
}

/**
 * The Agents SDK's `run()`: the agent's tools and handoffs (and its handed-to agents') join the running session
 * first; in a session given the agents' subagent paths (`agentsSdkTools`), the calls after a handoff are in the
 * handed-to agent's path, as with `agentsSdkAgent`.
 */
export const run: typeof agents.run = ((agent: unknown, ...rest: unknown[]) => {
  adoptAgentGraph(agent);
  if ((currentTurnContext()?.pipeline.tools.subagentPaths.size ?? 0) === 0)
    return (agents.run as (...args: unknown[]) => unknown)(agent, ...rest);
  const runner = new agents.Runner();
  return followingHandoffs(runner as unknown as HandoffEmitter, agent, () =>
    (runner.run as (...args: unknown[]) => unknown)(agent, ...rest),
  );
}) as typeof agents.run;

/** The Agents SDK's `Runner`: each run hands the running session the agent's tools and handoffs first. */
export const Runner: typeof agents.Runner = class extends agents.Runner {} as typeof agents.Runner;
const ownRun = agents.Runner.prototype.run;
Object.defineProperty(Runner.prototype, "run", {
  configurable: true,
  writable: true,
  value: function run(this: agents.Runner, ...args: unknown[]) {
    adoptAgentGraph(args[0]);
    return (ownRun as (...args: unknown[]) => unknown).apply(this, args);
  },
});

/** The Agents SDK's `tool()`: the tool it makes joins the running session at its first call there. */
export const tool: typeof agents.tool = ((options: unknown) => {
  const made = (agents.tool as (options: unknown) => { invoke: Invoke })(options);
  const invoke = made.invoke;
  made.invoke = function invokeInline(this: unknown, ...args: unknown[]) {
    // Newly joined: its `invoke` is caught now, and the call goes through the session's chain.
    if (adoptInline([made], "an Agents SDK tool()")) return made.invoke(...args);
    return invoke.apply(this, args);
  };
  return made;
}) as typeof agents.tool;
markInlineLibrary("@openai/agents");
