import { stubStep } from "./steps/stub-step.js";
import { strictStep } from "./steps/strict-step.js";
import type { RuleSet } from "../stubs/rule-set.js";
import type { Step } from "./types.js";

/** What a session's chain is made of, in the order the steps run. */
export interface ChainParts {
  /** Steps given to the session (and, later, the plugin's middleware): they see every call first. */
  readonly steps?: readonly Step[];
  /** The session's stub rules. */
  readonly rules: RuleSet;
  /** The session's HTTP mocks, beside the stubs. */
  readonly httpMocks?: Step;
  /** The session's cassette, after the stubs and mocks. */
  readonly cassette?: Step;
  /** Strict mode: nothing that would go live runs. */
  readonly strict: boolean;
}

/**
 * The order of the chain, outermost first. Recording wraps all of it (it is the chain itself: see
 * `ChainCall.run`), so the trace holds what the agent finally saw:
 *
 *   record → the session's steps (middleware) → stubs and HTTP mocks → cassette → strict → the real thing
 */
export function buildSteps(parts: ChainParts): readonly Step[] {
  return [
    ...(parts.steps ?? []),
    stubStep(parts.rules),
    ...(parts.httpMocks ? [parts.httpMocks] : []),
    ...(parts.cassette ? [parts.cassette] : []),
    ...(parts.strict ? [strictStep] : []),
  ];
}
