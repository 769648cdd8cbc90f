const WIRE_AGENT = Symbol.for("tooltrace.wireAgent");

/**
 * Marks an agent whose tools run in another process and are caught on the wire (a CLI): a session over it
 * knows its tools only when the model calls them, so stub rules may name any tool.
 */
export function markWireAgent<T extends object>(agent: T): T {
  return Object.assign(agent, { [WIRE_AGENT]: true });
}

/** True for an agent made by a CLI adapter. */
export function isWireAgent(agent: unknown): boolean {
  return typeof agent === "function" && (agent as unknown as Record<symbol, unknown>)[WIRE_AGENT] === true;
}
