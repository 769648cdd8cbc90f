import type { APICallError } from "@ai-sdk/provider";
import { lazyRequire } from "../base/lazy-require.js";
import { faultStatus, type InjectedFault, retryHeaders } from "../faults/fault-error.js";
import { paceOf, pacedStream, tokensMs } from "../faults/paced-body.js";
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

/** Stream parts at a `slow` fault's `tokensPerSecond`, spread over the time the reply's tokens take. */
export function pacedParts<T>(answer: ResolvedReply, parts: readonly T[]): ReadableStream<T> {
  const pace = paceOf(answer);
  const intervalMs = pace !== undefined && parts.length > 1 ? tokensMs(pace, answer.usage.outputTokens) / (parts.length - 1) : 0;
  return pacedStream(parts, { intervalMs });
}
