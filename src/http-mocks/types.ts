import type { Fault } from "../faults/types.js";
import type { ToolStubMatch } from "../stubs/types.js";

/** What an HTTP mock answers with: a response, after an optional delay. */
export interface HttpMockResponse {
  /** Default 200. */
  readonly status?: number;
  /** A JSON body (sets `content-type: application/json`). */
  readonly json?: unknown;
  /** A text body. */
  readonly text?: string;
  readonly headers?: { readonly [name: string]: string };
  /**
   * Simulated latency in milliseconds before the response; a range `{ min, max }` draws it from the
   * session's seed (`createSession({ seed })`, `variants()`), so the same seed gives the same latencies.
   */
  readonly delayMs?: number | { readonly min: number; readonly max: number };
}

/** Or a network error: the client's request fails (`fetch` rejects with a `TypeError`). */
export interface HttpMockNetworkError {
  /** What the trace records as the error. */
  readonly networkError: string;
}

/** One outcome of an HTTP mock. */
export type HttpMockOutcome = HttpMockResponse | HttpMockNetworkError;

/**
 * A declarative HTTP mock: plain JSON (a fixture file can hold it), in the same contract as stub rules.
 * The first mock whose method, URL and `match` fit answers; `outcomes` are answered in turn, the last one
 * repeating.
 *
 * @example
 * ```ts
 * { id: "paris", method: "GET", url: "https://api.weather.test/v1/current", match: { query: { properties: { city: { const: "Paris" } } } }, outcome: { json: { tempC: 21 } } }
 * ```
 */
export interface HttpMock {
  readonly id: string;
  /** Default: any method. */
  readonly method?: string;
  /**
   * A full URL or an MSW-style pattern with parameters and wildcards (`https://api.test/users/:id`,
   * `*\/v1/current`); a path alone (`/v1/current`) matches it on any host. A RegExp is tested against the
   * whole URL (not in the plugin's options, which are JSON).
   */
  readonly url: string | RegExp;
  /**
   * Constraints on the request as `{ method, url, path, query, headers, body }` (query parameters and
   * lower-cased headers as objects of strings, the body parsed as JSON when it is JSON), in the JSON Schema
   * subset of stub rules' `match`.
   */
  readonly match?: ToolStubMatch;
  readonly outcome?: HttpMockOutcome;
  readonly outcomes?: readonly HttpMockOutcome[];
  /**
   * Faults injected into the requests this mock matches, before its outcomes (which keep their place for
   * the retry): a 429 with `Retry-After`, a 5xx, a malformed body, a dropped connection, a slow answer.
   * `calls` counts the requests this mock matched.
   */
  readonly faults?: readonly Fault[];
}

/** What an HTTP mock matches against: the request as plain JSON. */
export interface HttpRequestView {
  readonly method: string;
  readonly url: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON when the body is JSON, else its text; `undefined` without a body. */
  readonly body: unknown;
}
