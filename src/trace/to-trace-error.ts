import type { TraceError } from "./types.js";

/** Keeps the name and message of anything thrown. */
export function toTraceError(error: unknown): TraceError {
  if (error instanceof Error) return { name: error.name, message: error.message };
  if (error !== null && typeof error === "object" && "message" in error) {
    const { name, message } = error as { name?: unknown; message?: unknown };
    return { name: typeof name === "string" ? name : "Error", message: String(message) };
  }
  return { name: "Error", message: String(error) };
}
