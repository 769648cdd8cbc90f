import type { ToolStubThrow } from "./types.js";

/**
 * A fresh copy of a stub's response, so an agent that mutates it cannot change the rule. Responses are
 * checked to be plain JSON at setup, so a plain recursive copy is exact (and far cheaper than `structuredClone`).
 */
export function outcomeResponse(response: unknown): unknown {
  return copyJson(response);
}

function copyJson(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = copyJson(value[i]);
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = copyJson((value as Record<string, unknown>)[key]);
  return copy;
}

/** The ordinary `Error` a `throw` outcome raises, with the given name (default `Error`) and message. */
export function outcomeError(spec: ToolStubThrow): Error {
  const error = new Error(spec.message);
  error.name = spec.name ?? "Error";
  return error;
}
