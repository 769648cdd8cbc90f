import type { Step } from "../types.js";
import type { CompiledHttpMock } from "../../http-mocks/validate-http-mock.js";
import { urlMatches } from "../../http-mocks/url-pattern.js";
import type { HttpMockOutcome, HttpMockResponse } from "../../http-mocks/types.js";
import { seededRandom } from "../../base/seeded-random.js";
import { interpretFirstMatch } from "../../stubs/match-interpreter.js";

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

/** The step answering HTTP exchanges from a session's HTTP mocks, and what it knows of their use. */
export interface HttpMockStep {
  readonly step: Step;
  /** False without mocks: the chain leaves the step out. */
  readonly active: boolean;
  unusedIds(): string[];
}

/**
 * First match wins; a mock's outcomes are answered in turn, the last one repeating. Only the mocks in
 * `reported` (the session's own, not the run's shared ones) count as unused when nothing used them.
 */
export function httpMockStep(mocks: readonly CompiledHttpMock[], reported: ReadonlySet<unknown>, seed = 0): HttpMockStep {
  const used = new Map<string, number>();
  const step: Step = {
    name: "http mocks",
    run: (ctx, next) => {
      if (ctx.kind !== "http" || mocks.length === 0) return next();
      const request = ctx.input as HttpRequestView;
      const mock = mocks.find(
        (candidate) =>
          (candidate.method === undefined || candidate.method === request.method) &&
          urlMatches(candidate.url, request.url) &&
          interpretFirstMatch([candidate.program], request) === 0,
      );
      if (mock === undefined) return next();
      const count = used.get(mock.id) ?? 0;
      used.set(mock.id, count + 1);
      const outcomeIndex = Math.min(count, mock.outcomes.length - 1);
      const outcome = mock.outcomes[outcomeIndex] as HttpMockOutcome;
      const source = { kind: "stub", ruleId: mock.id, outcomeIndex } as const;
      if ("networkError" in outcome) return ctx.fail(new TypeError(`fetch failed: ${outcome.networkError}`), source);
      const response = toResponse(outcome);
      const delay = delayOf(outcome.delayMs, seed, mock.id, count);
      if (delay === 0) return ctx.answer(response, source);
      return new Promise((resolve) => setTimeout(resolve, delay)).then(() => ctx.answer(response, source));
    },
  };
  return {
    step,
    active: mocks.length > 0,
    unusedIds: () => mocks.filter((mock) => reported.has(mock.id) && !used.has(mock.id)).map((mock) => mock.id),
  };
}

/** A fixed delay, or one drawn from a range by the session's seed, the mock and its use: the same seed, the same delays. */
function delayOf(delayMs: HttpMockResponse["delayMs"], seed: number, id: string, use: number): number {
  if (delayMs === undefined) return 0;
  if (typeof delayMs === "number") return delayMs;
  let hash = (seed * 1_000_003 + use) >>> 0;
  for (let i = 0; i < id.length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 16_777_619) >>> 0;
  return Math.round(delayMs.min + seededRandom(hash)() * (delayMs.max - delayMs.min));
}

function toResponse(outcome: Exclude<HttpMockOutcome, { networkError: string }>): Response {
  const headers = new Headers(outcome.headers);
  let body: string | null = null;
  if (outcome.json !== undefined) {
    body = JSON.stringify(outcome.json);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  } else if (outcome.text !== undefined) {
    body = outcome.text;
    if (!headers.has("content-type")) headers.set("content-type", "text/plain; charset=utf-8");
  }
  return new Response(body, { status: outcome.status ?? 200, headers });
}
