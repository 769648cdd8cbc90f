import { createRequire } from "node:module";
import { join } from "node:path";
import type { matchers } from "../../matchers/all.js";
import { packageRoot } from "../base/package-root.js";

/** The matchers the plugin registers, by name (a test checks the list against `matchers/all.ts`). */
export const MATCHER_NAMES = [
  "toHaveCalledTool",
  "toHaveToolOrder",
  "toHaveFailedAction",
  "toHaveMessageIncluding",
  "toSucceed",
  "toHaveNoFailedActions",
  "toHaveUsedNoTools",
  "toHaveAtMostToolCalls",
  "toHaveModelCalls",
  "toHaveUsageAtMost",
  "toHaveOfferedTool",
  "toHaveResult",
  "toHaveRequested",
  "toMatchTrajectory",
  "toHaveRecovered",
  "toHaveGivenUpCleanly",
  "toSatisfyJudge",
  "toMatchTraceSnapshot",
  "toMatchInlineTraceSnapshot",
] as const;

type Matcher = (this: unknown, ...args: unknown[]) => unknown;

let loaded: Record<string, Matcher> | undefined;

/**
 * Loads the matchers' code now, from the CommonJS build beside this file, which shares tooltrace's
 * process-wide state with the ES modules. Jest 30 refuses a `require` made while no test or hook of its own is
 * running, which is when a `test.concurrent` test's code may run: a file declaring one loads them up front.
 */
export function loadMatchers(): Record<string, Matcher> {
  loaded ??= (createRequire(join(packageRoot(), "dist", "matchers.cjs"))("./matchers.cjs") as { matchers: Record<string, Matcher> })
    .matchers;
  return loaded;
}

/**
 * The matchers, each loading their code at its first use: a test file that never calls one does not load
 * them. They are loaded synchronously, as a matcher runs.
 */
export function lazyMatchers(): typeof matchers {
  return Object.fromEntries(
    MATCHER_NAMES.map((name) => [
      name,
      {
        [name](this: unknown, ...args: unknown[]) {
          return (loadMatchers()[name] as Matcher).apply(this, args);
        },
      }[name],
    ]),
  ) as unknown as typeof matchers;
}
