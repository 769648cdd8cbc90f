/** @module tooltrace/agents-sdk */
import { Handoff, handoff, Runner, setTracingDisabled, type Agent as AgentsSdkAgent, type AgentInputItem } from "@openai/agents";
import type { Agent } from "../session/types.js";
import { followingHandoffs, subagentName } from "../catchers/handoff-paths.js";
import { usageError } from "../exits/errors.js";

/** An agent as the SDK's runner takes it. */
export type AgentsSdkRunnable = AgentsSdkAgent<unknown, "text">;

// Handed-to agents differ in context and output types; tooltrace reads only their names, tools and handoffs.
// biome-ignore lint/suspicious/noExplicitAny: an agent of any context and output type must be accepted (the SDK's types are invariant in both).
type AnyAgent = AgentsSdkAgent<any, any>;
// biome-ignore lint/suspicious/noExplicitAny: as above, for the handoffs such agents hold.
type AnyHandoff = Handoff<any, any>;

/** Options of {@link agentsSdkAgent}. */
export interface AgentsSdkAgentOptions {
  /** The most model turns one `run` may take. Default: the SDK's. */
  readonly maxTurns?: number;
  /** Run it streamed (`{ stream: true }`, the stream read to its end), as an app that streams its answer does. */
  readonly stream?: boolean;
}

/** A streamed run, read to its end as an app's UI would: its result once complete. */
async function streamed(
  runner: Runner,
  agent: AgentsSdkRunnable,
  input: AgentInputItem[],
  options: { readonly signal?: AbortSignal; readonly maxTurns?: number },
): Promise<{ readonly finalOutput?: unknown; readonly history: AgentInputItem[] }> {
  const stream = await runner.run(agent, input, { ...options, stream: true });
  for await (const _event of stream) {
    // Each event is what the app would show; the result is read once the run completes.
  }
  await stream.completed;
  return stream;
}

/**
 * An agent that runs an OpenAI Agents SDK agent per turn (`run(agent, history + message)`), keeping the
 * run's items as the session's history. Every turn starts at `agent`; the history shows the model any
 * handoff made before.
 *
 * Give the session the agent's tools with {@link agentsSdkTools}. A handoff moves the rest of the run into
 * the handed-to agent's subagent path, so its calls are `billing/refund_order`, also where it shares tool
 * objects with the agent that handed off. An agent used as a tool (`billing.asTool({ toolName: "billing" })`)
 * runs in the path named like the tool, `billing`. The SDK's own tracing is switched off: tests must not
 * export traces.
 *
 * @example
 * ```ts
 * const session = createSession({ agent: agentsSdkAgent(triage), ...agentsSdkTools(triage), stubs });
 * ```
 */
export function agentsSdkAgent(agent: AgentsSdkRunnable, options: AgentsSdkAgentOptions = {}): Agent<AgentInputItem> {
  setTracingDisabled(true);
  return async (message, { history, signal }) => {
    const runner = new Runner();
    const input: AgentInputItem[] = [...history, { role: "user", content: message }];
    const runOptions = { signal, ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}) };
    const result: { readonly finalOutput?: unknown; readonly history: AgentInputItem[] } = await followingHandoffs(runner, agent, () =>
      options.stream === true ? streamed(runner, agent, input, runOptions) : runner.run(agent, input, runOptions),
    );
    return { text: String(result.finalOutput ?? ""), messages: result.history.slice(history.length) };
  };
}

/** The tools of an Agents SDK agent and of every agent it can hand off to, as `createSession` takes them. */
export interface AgentsSdkTools {
  /** The agent's own tools and handoffs (`transfer_to_billing`), by name. */
  readonly tools: Record<string, unknown>;
  /** Each agent reachable by handoffs, by its subagent path: its tools and its own handoffs. */
  readonly subagents: Record<string, Record<string, unknown>>;
}

/**
 * The tools of `agent` and of the agents it hands off to, for `createSession({ ...agentsSdkTools(agent) })`.
 * Each handed-to agent is a subagent path named like the SDK names its handoff tool without `transfer_to_`
 * (agent `billing`: path `billing`, rules `billing/refund_order`). Handoffs are traced as tool calls
 * (`transfer_to_billing`, output `{ assistant: "billing" }`); no stub may answer one.
 *
 * An agent listed directly in `handoffs` is replaced there by the SDK's own `handoff(agent)`, which is what
 * the SDK makes of it on every run anyway, so that tooltrace can catch the transfer.
 */
export function agentsSdkTools(agent: AgentsSdkRunnable): AgentsSdkTools {
  const tools = toolsOf(agent);
  const subagents: Record<string, Record<string, unknown>> = {};
  const seen = new Set<AnyAgent>([agent as AnyAgent]);
  const queue = handoffsOf(agent);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (seen.has(next)) continue;
    seen.add(next);
    const name = subagentName(next);
    if (subagents[name] !== undefined) {
      throw usageError(`agentsSdkTools: two agents hand off under the same name "${next.name}"; give each agent a distinct name.`);
    }
    subagents[name] = toolsOf(next);
    queue.push(...handoffsOf(next));
  }
  return { tools, subagents };
}

function toolsOf(agent: AnyAgent): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const tool of agent.tools) record[tool.name] = tool;
  for (const entry of caughtHandoffs(agent)) record[entry.toolName] = entry;
  return record;
}

function handoffsOf(agent: AnyAgent): AnyAgent[] {
  return caughtHandoffs(agent).map((entry) => entry.agent);
}

/** The agent's handoffs as `Handoff` objects, made once and kept on the agent so their calls can be caught. */
function caughtHandoffs(agent: AnyAgent): AnyHandoff[] {
  agent.handoffs = agent.handoffs.map((entry) => (entry instanceof Handoff ? entry : handoff(entry)));
  return agent.handoffs as AnyHandoff[];
}
