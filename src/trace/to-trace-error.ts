import { userCallSite } from "../base/call-site.js";
import type { TraceError } from "./types.js";

/**
 * Keeps the name and message of anything thrown (with `withSite`, a turn's error: the first frame of the user's
 * code in its stack, for the failure that shows it). A network failure that says only "fetch failed" (undici
 * keeps the reason in its `cause`) gets its cause's first line: the trace says what failed, a refusal included.
 */
export function toTraceError(error: unknown, withSite = false): TraceError {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? error.cause.message.split("\n")[0]?.replace(/^\[tooltrace\] /, "") : undefined;
    const generic = error.message === "fetch failed" || error.message === "Connection error.";
    const at = withSite ? userCallSite(error.stack) : undefined;
    return {
      name: error.name,
      message: generic && cause ? `${error.message}: ${cause}` : error.message,
      ...(at !== undefined ? { at } : {}),
    };
  }
  if (error !== null && typeof error === "object" && "message" in error) {
    const { name, message } = error as { name?: unknown; message?: unknown };
    return { name: typeof name === "string" ? name : "Error", message: String(message) };
  }
  return { name: "Error", message: String(error) };
}
