import type { ToolStubOutcome } from "./types.js";

/**
 * Turns an outcome into what the stubbed tool does: returns a fresh copy of the response (so an agent
 * that mutates it cannot change the rule), or throws an ordinary `Error` with the given name and message.
 */
export function outcomeToResult(outcome: ToolStubOutcome): unknown {
  if (outcome.throw !== undefined) {
    const error = new Error(outcome.throw.message);
    error.name = outcome.throw.name ?? "Error";
    throw error;
  }
  const response = outcome.response;
  return response !== null && typeof response === "object" ? structuredClone(response) : response;
}
