import type { ModelCall } from "./types.js";

/**
 * A model call answered outside any session (the wire mock on its own), as one finished record: it belongs
 * to no turn (`turnIndex` -1) and no log (`seq` 0).
 */
export function detachedModelCall(
  fields: Omit<ModelCall, "seq" | "kind" | "turnIndex" | "start" | "end" | "durationMs" | "startedAt"> & {
    readonly startedAt: number;
    readonly durationMs: number;
  },
): ModelCall {
  return { ...fields, seq: 0, kind: "model", turnIndex: -1, start: 0, end: fields.durationMs };
}
