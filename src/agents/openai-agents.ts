import { run, setTracingDisabled, type Agent as AgentsSdkAgent, type AgentInputItem } from "@openai/agents";
import type { Agent } from "../session/types.js";

/** Options of {@link agentsSdkAgent}. */
export interface AgentsSdkAgentOptions {
  /** The most model turns one `run` may take. Default: the SDK's. */
  readonly maxTurns?: number;
}

/**
 * An agent that runs an OpenAI Agents SDK agent per turn (`run(agent, history + message)`), keeping the
 * run's items as the session's history. Pass the agent's function tools to `createSession({ tools })` (the
 * array `agent.tools` as it is) and each sub-agent's under `subagents`: an agent used as a tool
 * (`billing.asTool({ toolName: "billing" })`) runs in the path `billing`, so its calls are `billing/refund_order`.
 * The SDK's own tracing is switched off: tests must not export traces.
 *
 * @example
 * ```ts
 * const session = createSession({ agent: agentsSdkAgent(support), tools: support.tools, subagents: { billing: billing.tools }, stubs });
 * ```
 */
export function agentsSdkAgent(agent: AgentsSdkAgent<unknown, "text">, options: AgentsSdkAgentOptions = {}): Agent<AgentInputItem> {
  setTracingDisabled(true);
  return async (message, { history, signal }) => {
    const result = await run(agent, [...history, { role: "user", content: message }], { signal, ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}) });
    return { text: String(result.finalOutput ?? ""), messages: result.history.slice(history.length) };
  };
}
