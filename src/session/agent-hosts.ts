const AGENT_HOSTS = Symbol.for("tooltrace.agentHosts");

/**
 * Marks an agent that reaches these hosts itself (a deployed agent's URL, see `remoteAgent`): a strict session
 * over it allows them, as if they were in its `allowHosts`, since that traffic is the agent under test.
 */
export function withAgentHosts<T extends object>(agent: T, hosts: readonly string[]): T {
  return Object.assign(agent, { [AGENT_HOSTS]: [...hosts] });
}

/** `allowHosts` with the hosts the agent reaches itself; anything but an array is left for `edgePolicyOf` to refuse. */
export function allowHostsWith(allowHosts: unknown, agent: unknown): unknown {
  const hosts = typeof agent === "function" ? (agent as unknown as Record<symbol, unknown>)[AGENT_HOSTS] : undefined;
  if (!Array.isArray(hosts) || (allowHosts !== undefined && !Array.isArray(allowHosts))) return allowHosts;
  return [...((allowHosts as readonly unknown[] | undefined) ?? []), ...hosts];
}
