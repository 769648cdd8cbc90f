import { seededRandom } from "../base/seeded-random.js";
import { FaultPlans } from "../faults/fault-plan.js";
import type { FiredFault } from "../faults/types.js";
import { interpretFirstMatch } from "../stubs/match-interpreter.js";
import type { HttpMockOutcome, HttpMockResponse, HttpRequestView } from "./types.js";
import { urlMatches } from "./url-pattern.js";
import type { CompiledHttpMock } from "./validate-http-mock.js";

/** The mock that matched a request, and the fault it answers with instead of an outcome. */
export interface HttpMockFaultSelection {
  readonly mockId: string;
  readonly fault: FiredFault;
}

/** The mock that answers a request, and with which of its outcomes. */
export interface HttpMockSelection {
  readonly mockId: string;
  readonly outcomeIndex: number;
  readonly outcome: HttpMockOutcome;
  /** Milliseconds to wait before answering (a fixed delay, or one drawn from the seed). */
  readonly delayMs: number;
}

/**
 * A session's HTTP mocks and how often each answered. First match wins; a mock's outcomes are answered in
 * turn, the last one repeating. Only the mocks in `reported` (the session's own, not the run's shared ones)
 * count as unused when nothing used them.
 */
export class HttpMockSet {
  private readonly used = new Map<string, number>();
  private readonly faults: FaultPlans;

  constructor(
    private readonly mocks: readonly CompiledHttpMock[],
    private readonly reported: ReadonlySet<string>,
    private readonly seed = 0,
  ) {
    this.faults = new FaultPlans(seed);
  }

  get size(): number {
    return this.mocks.length;
  }

  /** The mock answering `request`, advancing its sequence; `undefined` when none fits. */
  select(request: HttpRequestView): HttpMockSelection | HttpMockFaultSelection | undefined {
    const mock = this.mocks.find(
      (candidate) =>
        (candidate.method === undefined || candidate.method === request.method) &&
        urlMatches(candidate.url, request.url) &&
        interpretFirstMatch([candidate.program], request) === 0,
    );
    if (mock === undefined) return undefined;
    const fault = this.faults.next(mock.id, mock.faults, `HTTP mock "${mock.id}" faults`);
    if (fault !== undefined && fault.fault.fault !== "slow") {
      if (!this.used.has(mock.id)) this.used.set(mock.id, 0);
      return { mockId: mock.id, fault };
    }
    const count = this.used.get(mock.id) ?? 0;
    this.used.set(mock.id, count + 1);
    const outcomeIndex = Math.min(count, mock.outcomes.length - 1);
    const outcome = mock.outcomes[outcomeIndex] as HttpMockOutcome;
    const delayMs = "networkError" in outcome ? 0 : delayOf(outcome.delayMs, this.seed, mock.id, count) + slowness(fault, outcome);
    return { mockId: mock.id, outcomeIndex, outcome, delayMs };
  }

  unusedIds(): string[] {
    return this.mocks.filter((mock) => this.reported.has(mock.id) && !this.used.has(mock.id)).map((mock) => mock.id);
  }
}

/** A fixed delay, or one drawn from a range by the session's seed, the mock and its use: the same seed, the same delays. */
function delayOf(delayMs: HttpMockResponse["delayMs"], seed: number, id: string, use: number): number {
  if (delayMs === undefined) return 0;
  if (typeof delayMs === "number") return delayMs;
  let hash = (seed * 1_000_003 + use) >>> 0;
  for (let i = 0; i < id.length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 16_777_619) >>> 0;
  return Math.round(delayMs.min + seededRandom(hash)() * (delayMs.max - delayMs.min));
}

/** What a `slow` fault adds to an answer's delay: its time to first byte, and its body at its pace. */
function slowness(fired: FiredFault | undefined, outcome: HttpMockResponse): number {
  if (fired === undefined) return 0;
  const { firstTokenMs = 0, tokensPerSecond } = fired.fault;
  const size = outcome.json !== undefined ? JSON.stringify(outcome.json).length : (outcome.text?.length ?? 0);
  return firstTokenMs + (tokensPerSecond ? Math.round((Math.ceil(size / 4) / tokensPerSecond) * 1000) : 0);
}

/** The response an outcome describes (not a network error). */
export function mockResponse(outcome: Exclude<HttpMockOutcome, { networkError: string }>): Response {
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
