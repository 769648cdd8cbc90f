/**
 * What goes wrong on purpose:
 * - `rate_limit`: the provider's 429 with `Retry-After` (seconds, default 0 so a client's retry comes at once).
 * - `server_error`: the provider's 500 (or `status`: 502, 503, 504).
 * - `overloaded`: Anthropic's 529 `overloaded_error`; OpenAI's and Gemini's 503.
 * - `malformed`: the answer's own JSON (or its first delta after `afterEvents` events) cut in the middle, in a 200.
 * - `stream_cut`: exactly `afterEvents` server-sent events of the answer, then the connection drops (half the
 *   body for JSON). The mock model's step is not spent: the retry gets the whole reply.
 * - `network_error`: the connection fails before any answer (`fetch` rejects).
 * - `slow`: the answer comes, paced: `firstTokenMs` before its first token, then its text at `tokensPerSecond`.
 */
export type FaultKind = "rate_limit" | "server_error" | "overloaded" | "malformed" | "stream_cut" | "network_error" | "slow";

/**
 * A fault injected on purpose into a model call on the wire (`createSession({ faults })`) or an HTTP exchange
 * (`HttpMock.faults`): plain JSON, like stub rules. It fires on the `calls` it names, or on each call with
 * `probability`, drawn from the session's seed (the same seed gives the same faults); with neither, on every
 * call. The first fault of a list that fires wins. A fault answers instead of the mock model (or the mock):
 * the script's next step is left for the retry.
 *
 * @example
 * ```ts
 * faults: [{ fault: "rate_limit", calls: [1] }, { fault: "server_error", status: 503, probability: 0.2 }]
 * ```
 */
export interface Fault {
  readonly fault: FaultKind;
  /** The calls it fires on, 1-based, counted over the calls the list applies to (every attempt counts). */
  readonly calls?: readonly number[];
  /** Or the chance it fires on each call, between 0 and 1, drawn from the session's seed. */
  readonly probability?: number;
  /** `rate_limit` (or any error): the `Retry-After` header, in seconds. Default: 0 for `rate_limit`, none otherwise. */
  readonly retryAfter?: number;
  /** `server_error`: the status, 500 (default), 502, 503 or 504. */
  readonly status?: 500 | 502 | 503 | 504;
  /** `stream_cut`: how many server-sent events arrive before the connection drops (`malformed`: before the broken one). Default 2. */
  readonly afterEvents?: number;
  /** `slow`: milliseconds before the first byte. Default 0. */
  readonly firstTokenMs?: number;
  /** `slow`: the pace of the rest, in tokens (about four characters) per second. Default: no limit. */
  readonly tokensPerSecond?: number;
}

/** A fault that fired: which one (its place in its list) and on which call. */
export interface FiredFault {
  readonly fault: Fault;
  /** Where it was declared: `faults[0]`, `httpMocks[weather].faults[1]`. */
  readonly where: string;
  /** The call it fired on, 1-based among the calls its list applies to. */
  readonly call: number;
}
