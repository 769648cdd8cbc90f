import type { Cassette } from "../cassettes/cassette.js";
import type { HttpMockSet } from "../http-mocks/mock-set.js";
import type { TurnMiddleware } from "../middleware/turn-middleware.js";
import type { Middleware } from "../middleware/types.js";
import type { RuleSet } from "../stubs/rule-set.js";
import { cassetteStep } from "./steps/cassette-step.js";
import type { FaultPlan } from "../faults/fault-plan.js";
import { faultStep } from "./steps/fault-step.js";
import { httpMockStep } from "./steps/http-mock-step.js";
import { middlewareSteps } from "./steps/middleware-step.js";
import { type StrictParts, strictStep } from "./steps/strict-step.js";
import { stubStep } from "./steps/stub-step.js";
import type { Step } from "./types.js";

/** What a session's chain is made of. */
export interface ChainParts {
  /** The run's middleware, then the session's, and the middleware run of each turn still running. */
  readonly middleware: readonly Middleware[];
  readonly turnMiddleware: (turnIndex: number) => TurnMiddleware | undefined;
  /** Steps given to the session: they see every call, after the middleware. */
  readonly steps?: readonly Step[];
  readonly rules: RuleSet;
  readonly httpMocks: HttpMockSet;
  readonly cassette: Cassette | undefined;
  /** The session's faults on its model calls (`createSession({ faults })`). */
  readonly faults?: FaultPlan | undefined;
  /**
   * Strict mode refuses what would go live (a recording session lets the real thing run, strict or not),
   * but for HTTP to the hosts it allows.
   */
  readonly strict: StrictParts | undefined;
}

/**
 * The order of the chain, outermost first. Recording wraps all of it (it is the chain itself: see
 * `ChainCall.run`), so the trace holds what the agent finally saw:
 *
 *   record → middleware → the session's steps → faults → stubs and HTTP mocks → cassette → strict → the real thing
 */
export function buildSteps(parts: ChainParts): readonly Step[] {
  return [
    ...middlewareSteps(parts.middleware, parts.turnMiddleware),
    ...(parts.steps ?? []),
    ...(parts.faults !== undefined && parts.faults.size > 0 ? [faultStep(parts.faults)] : []),
    stubStep(parts.rules),
    ...(parts.httpMocks.size > 0 ? [httpMockStep(parts.httpMocks)] : []),
    ...(parts.cassette ? [cassetteStep(parts.cassette)] : []),
    ...(parts.strict ? [strictStep(parts.strict, (tool, input) => parts.rules.explainMiss(tool, input))] : []),
  ];
}
