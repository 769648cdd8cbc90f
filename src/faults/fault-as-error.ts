import { faultStatus, type InjectedFault, retryAfterOf } from "./fault-error.js";

/**
 * A fault as a tool's HTTP client reports it, thrown from the tool: an error with the `status` (and
 * `retry-after` in its `headers`) for a 429 or a 5xx, `TypeError: fetch failed` for a failed connection,
 * `TypeError: terminated` for a dropped one, a `SyntaxError` for a body cut in the middle.
 */
export function faultAsError(injected: InjectedFault): Error {
  const { fired } = injected;
  switch (fired.fault.fault) {
    case "network_error":
      return new TypeError("fetch failed", { cause: injected });
    case "stream_cut":
      return new TypeError("terminated", { cause: injected });
    case "malformed":
      return new SyntaxError(`Unexpected end of JSON input (${injected.message})`, { cause: injected });
    default: {
      const status = faultStatus(fired, 503);
      const retryAfter = retryAfterOf(fired);
      const headers: Record<string, string> = retryAfter === undefined ? {} : { "retry-after": String(retryAfter) };
      return Object.assign(new Error(`${status} ${injected.message}`, { cause: injected }), { status, statusCode: status, headers });
    }
  }
}
