import { message } from "../exits/errors.js";
import { openEdgeGuards } from "../pipeline/edge-policy.js";
import { currentTurnContext } from "../pipeline/turn-context.js";

/** The error a refused socket operation fails with: a network error, with the refusal as its message. */
export function edgeError(refusal: string): Error {
  return Object.assign(new Error(message(refusal)), { code: "ERR_TOOLTRACE_REFUSED" });
}

/** No strict session is open and none is running here (the common case, one async-context read). */
export function noStrictSession(): boolean {
  return currentTurnContext()?.pipeline.edges === undefined && openEdgeGuards().size === 0;
}
