import type { ToolStubThrow } from "./types.js";

/** A fresh copy of a stub's response, so an agent that mutates it cannot change the rule. */
export function outcomeResponse(response: unknown): unknown {
  return response !== null && typeof response === "object" ? structuredClone(response) : response;
}

/** The ordinary `Error` a `throw` outcome raises, with the given name (default `Error`) and message. */
export function outcomeError(spec: ToolStubThrow): Error {
  const error = new Error(spec.message);
  error.name = spec.name ?? "Error";
  return error;
}
