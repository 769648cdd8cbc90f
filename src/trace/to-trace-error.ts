import type { TraceError } from "./types.js";

/**
 * Keeps the name and message of anything thrown. A network failure that says only "fetch failed" (undici
 * keeps the reason in its `cause`) gets its cause's first line: the trace says what failed, a refusal included.
 */
export function toTraceError(error: unknown): TraceError {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? error.cause.message.split("\n")[0]?.replace(/^\[tooltrace\] /, "") : undefined;
    const generic = error.message === "fetch failed" || error.message === "Connection error.";
    return { name: error.name, message: generic && cause ? `${error.message}: ${cause}` : error.message };
  }
  if (error !== null && typeof error === "object" && "message" in error) {
    const { name, message } = error as { name?: unknown; message?: unknown };
    return { name: typeof name === "string" ? name : "Error", message: String(message) };
  }
  return { name: "Error", message: String(error) };
}
