import { stubStep } from "../steps/stub-step.js";
import { strictStep } from "../steps/strict-step.js";
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
  /** Strict mode: nothing that would go live runs. */
  readonly strict: boolean;
}

/**
 * The order of the chain, outermost first. Recording wraps all of it (it is the chain itself: see
 * `ChainCall.run`), so the trace holds what the agent finally saw:
 *
 *   record → the session's steps (middleware) → [cassette replay] → stubs and HTTP mocks → strict → the real thing
 *
 * Cassette replay takes its place between the session's steps and the stubs when it exists.
 */
export function buildSteps(parts: ChainParts): readonly Step[] {
  return [...(parts.steps ?? []), stubStep(parts.rules), ...(parts.httpMocks ? [parts.httpMocks] : []), ...(parts.strict ? [strictStep] : [])];
}
