import { startRunLimiter } from "../base/provider-gate.js";

/**
 * Under Jest the run's limiter lives in the reporter's process: `tooltrace/jest-reporter` starts it and names its
 * address (`127.0.0.1:port`) in this variable, which Jest's workers inherit; the Jest setup connects to it when
 * `globals.tooltrace.providers` sets a `maxInFlight`. Without the variable each worker holds its own limits.
 */
export const JEST_LIMITER_ENV = "TOOLTRACE_JEST_LIMITER";

/**
 * In the reporter's `onRunStart`, which Jest awaits before it forks its workers: starts the run's limiter (once;
 * watch mode's reruns share it) and hands its address to the workers.
 */
export async function hostJestLimiter(): Promise<void> {
  process.env[JEST_LIMITER_ENV] = await startRunLimiter();
}
