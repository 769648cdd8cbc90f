import type { Usage } from "../src/trace/types.js";
import { addUsage, ZERO_USAGE } from "../src/trace/usage.js";
import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { modelCallsSection } from "./lib/model-calls.js";
import { notATrace, readTrace } from "./lib/read-trace.js";
import { reportSections } from "./lib/report.js";
import { usageError } from "../src/exits/errors.js";

/** A token budget: a number limits `totalTokens`; an object limits each count it names. */
export type UsageLimit = number | Partial<Usage>;

const KEYS = ["inputTokens", "outputTokens", "totalTokens"] as const;

/** The turn's (or session's) token usage stays within the limit. */
export function toHaveUsageAtMost(this: MatcherContext, received: unknown, limit: UsageLimit): MatcherResult {
  const limits: Partial<Usage> = typeof limit === "number" ? { totalTokens: limit } : limit;
  if (limits === null || typeof limits !== "object" || Object.keys(limits).some((key) => !KEYS.includes(key as (typeof KEYS)[number]))) {
    throw usageError("toHaveUsageAtMost(limit): pass a number of total tokens or { inputTokens?, outputTokens?, totalTokens? }.");
  }
  const trace = readTrace(received);
  if (trace === undefined || trace.kind === "calls")
    return { pass: false, message: () => notATrace("toHaveUsageAtMost (a turn or a session)", received) };
  const usage = trace.turns.reduce((sum, turn) => addUsage(sum, turn.usage), ZERO_USAGE);
  const over = KEYS.filter((key) => limits[key] !== undefined && usage[key] > (limits[key] as number));
  const describe = (u: Partial<Usage>) =>
    KEYS.filter((key) => u[key] !== undefined)
      .map((key) => `${key} ${u[key]}`)
      .join(", ");
  return {
    pass: over.length === 0,
    message: () =>
      reportSections(this, "toHaveUsageAtMost", `${this.isNot ? "more than" : "at most"} ${describe(limits)}`, describe(usage), [
        modelCallsSection(trace.turns),
      ]),
  };
}
