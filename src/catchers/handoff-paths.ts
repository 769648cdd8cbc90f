import type { TurnContext } from "../pipeline/caught.js";
import { currentTurnContext, runInTurnContext } from "../pipeline/turn-context.js";
import type { Mutable } from "../trace/records.js";

/** The part of an Agents SDK `Runner` that reports handoffs. */
export interface HandoffEmitter {
  on(event: "agent_handoff", listener: (context: unknown, from: unknown, to: { readonly name: string }) => void): unknown;
}

/** An agent's subagent path: its name as the SDK writes it in the handoff tool's name. */
export function subagentName(agent: { readonly name: string }): string {
  return agent.name.replace(/[^a-zA-Z0-9]/g, "_");
}

/**
 * Runs `run` in a context of its own whose subagent path follows the runner's handoffs: after a handoff to
 * `billing`, the calls are `billing/refund_order` (and back at `root`, the turn's own path). Outside a turn, `run`.
 */
export function followingHandoffs<T>(runner: HandoffEmitter, root: unknown, run: () => T): T {
  const context = currentTurnContext();
  if (context === undefined) return run();
  const base = context.path;
  const scope: Mutable<TurnContext> = { ...context };
  runner.on("agent_handoff", (_runContext, _from, to) => {
    scope.path = to === root ? base : [...base, subagentName(to)];
  });
  return runInTurnContext(scope, run);
}
