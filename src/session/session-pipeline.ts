import type { Pipeline } from "../pipeline/pipeline.js";

/** Where a session keeps its pipeline for tooltrace's own adapters (not part of the public `Session`). */
export const SESSION_PIPELINE: unique symbol = Symbol.for("tooltrace.sessionPipeline") as never;

/** The pipeline of a session `createSession` made, or `undefined` for any other object. */
export function pipelineOf(session: unknown): Pipeline | undefined {
  return session !== null && typeof session === "object" ? (session as { [SESSION_PIPELINE]?: Pipeline })[SESSION_PIPELINE] : undefined;
}
