import type { APICallError } from "@ai-sdk/provider";
import { lazyRequire } from "../base/lazy-require.js";
import { faultStatus, type InjectedFault, retryAfterOf } from "../faults/fault-error.js";
import { paceOf } from "../faults/paced-body.js";

const provider = lazyRequire<{ APICallError: typeof APICallError }>("@ai-sdk/provider");
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A fault as an AI SDK provider reports it, so `generateText`'s retries treat it as they treat a real one:
 * the provider's status as a retryable `APICallError` (with `retry-after` in its headers), a dropped
 * connection as "Cannot connect to API" (retryable), a malformed body as a non-retryable one.
 */
export function faultAsApiError(injected: InjectedFault, url: string): APICallError {
  const { fired } = injected;
  const kind = fired.fault.fault;
  const status = faultStatus(fired, 529);
  const headers: Record<string, string> = {};
  const retryAfter = retryAfterOf(fired);
  if (retryAfter !== undefined) {
    headers["retry-after"] = String(retryAfter);
    headers["retry-after-ms"] = String(retryAfter * 1000);
  }
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

/** Waits as a `slow` fault says before an answer of `characters` characters (four to a token) is whole. */
export async function paceAnswer(answer: object, characters: number): Promise<void> {
  const pace = paceOf(answer);
  if (pace === undefined) return;
  const { firstTokenMs = 0, tokensPerSecond } = pace.fault;
  await sleep(firstTokenMs + (tokensPerSecond ? (Math.ceil(characters / 4) / tokensPerSecond) * 1000 : 0));
}

/** Stream parts at a `slow` fault's pace: the first after `firstTokenMs`, the rest at `tokensPerSecond`. */
export function pacedParts<T>(answer: object, parts: readonly T[]): ReadableStream<T> {
  const pace = paceOf(answer)?.fault;
  let index = 0;
  return new ReadableStream<T>({
    async pull(controller) {
      if (index >= parts.length) {
        controller.close();
        return;
      }
      const part = parts[index] as T;
      const size = JSON.stringify(part).length;
      const wait =
        pace === undefined
          ? 0
          : index === 0
            ? (pace.firstTokenMs ?? 0)
            : pace.tokensPerSecond
              ? (size / 4 / pace.tokensPerSecond) * 1000
              : 0;
      if (wait > 0) await sleep(wait);
      index += 1;
      controller.enqueue(part);
    },
  });
}
