import type { APICallError } from "@ai-sdk/provider";
import { lazyRequire } from "../base/lazy-require.js";
import { faultStatus, type InjectedFault, retryHeaders } from "../faults/fault-error.js";
import { paceOf, pacedStream, textDelays, tokensMs } from "../faults/paced-body.js";
import type { ResolvedReply } from "../model/types.js";

const provider = lazyRequire<{ APICallError: typeof APICallError }>("@ai-sdk/provider");

/**
 * A fault as an AI SDK provider reports it, so `generateText`'s retries treat it as they treat a real one:
 * the provider's status as a retryable `APICallError` (with `retry-after` in its headers), a dropped
 * connection as "Cannot connect to API" (retryable), a malformed body as a non-retryable one.
 */
export function faultAsApiError(injected: InjectedFault, url: string): APICallError {
  const { fired } = injected;
  const kind = fired.fault.fault;
  const status = faultStatus(fired, 529);
  const headers = retryHeaders(fired);
  const dropped = kind === "stream_cut" || kind === "network_error";
  return new (provider().APICallError)({
    message: dropped
      ? `Cannot connect to API: ${injected.message}`
      : kind === "malformed"
        ? `Invalid JSON response: ${injected.message}`
        : injected.message,
    url,
    requestBodyValues: {},
    ...(dropped ? {} : { statusCode: status, responseHeaders: headers, responseBody: "" }),
    isRetryable: kind !== "malformed",
    cause: injected,
  });
}

/**
 * Stream parts at a `slow` fault's pace, as a client measures it: the parts before the first text at once,
 * then each text delta after the time its share of the reply's tokens takes (without text, spread evenly).
 */
export function pacedParts<T>(answer: ResolvedReply, parts: readonly T[]): ReadableStream<T> {
  const pace = paceOf(answer);
  const total = pace === undefined ? 0 : tokensMs(pace, answer.usage.outputTokens);
  if (total === 0 || parts.length < 2) return pacedStream(parts, {});
  const weights = parts.map((part) => {
    const { type, delta } = part as { type?: unknown; delta?: unknown };
    return type === "text-delta" && typeof delta === "string" ? delta.length : 0;
  });
  return pacedStream(parts, { delays: textDelays(weights, total) });
}

/**
 * A stream a `stream_cut` or `malformed` fault breaks: `afterEvents` parts of the answer arrive, then the
 * connection drops (the stream errors with the provider's error), or a part that could not be parsed comes
 * as an `error` part, as a provider reports a chunk it could not read, and the stream ends there.
 */
export function cutParts<T>(parts: readonly T[], injected: InjectedFault, error: unknown): ReadableStream<T> {
  const after = Math.min(injected.fired.fault.afterEvents ?? 2, parts.length - 1);
  if (injected.fired.fault.fault === "malformed") return pacedStream([...parts.slice(0, after), { type: "error", error } as T], {});
  return pacedStream(parts, { cutAfter: after, cut: error instanceof Error ? error : new Error(String(error)) });
}
