import { isDeepStrictEqual } from "node:util";
import type { Judge } from "../../matchers/lib/judge.js";

/** One expected tool call: its tool, and the arguments it must have (others may be there too). */
export interface ExpectedCall {
  readonly tool: string;
  readonly input?: Readonly<Record<string, unknown>>;
}

/** Options of {@link trajectoryJudge}. */
export interface TrajectoryJudgeOptions {
  /** `in-order` (default): a call found out of order earns a quarter; `any-order`: order does not count. */
  readonly order?: "in-order" | "any-order";
  /** `penalize`: calls beyond the expected ones lower the score in proportion. Default `ignore`. */
  readonly extra?: "ignore" | "penalize";
  /** The judge's name in the trace. Default `trajectory`. */
  readonly name?: string;
}

const fits = (expected: ExpectedCall, input: unknown) =>
  expected.input === undefined ||
  Object.entries(expected.input).every(([key, value]) => isDeepStrictEqual((input as Record<string, unknown> | null)?.[key], value));

/**
 * Judges the tool calls with partial credit: each expected call earns 1 when made with its arguments, 0.5
 * when made with others, a quarter of that when made out of order; the score is the mean, lowered by extra
 * calls with `extra: "penalize"`. The reason lists what each expected call earned.
 */
export function trajectoryJudge(expected: readonly ExpectedCall[], options: TrajectoryJudgeOptions = {}): Judge {
  const judge: Judge = ({ turns }) => {
    const calls = turns.flatMap((turn) => turn.toolCalls);
    const used = new Set<number>();
    let cursor = 0;
    const lines: string[] = [];
    let total = 0;
    for (const step of expected) {
      const candidates = calls
        .map((call, index) => ({ call, index }))
        .filter(({ call, index }) => call.qualifiedName === step.tool && !used.has(index));
      const inOrder = candidates.filter(({ index }) => options.order === "any-order" || index >= cursor);
      const pick =
        inOrder.find(({ call }) => fits(step, call.input)) ??
        inOrder[0] ??
        candidates.find(({ call }) => fits(step, call.input)) ??
        candidates[0];
      if (pick === undefined) {
        lines.push(`${step.tool}: not called (0)`);
        continue;
      }
      used.add(pick.index);
      const ordered = inOrder.includes(pick);
      if (ordered) cursor = pick.index + 1;
      const credit = (fits(step, pick.call.input) ? 1 : 0.5) * (ordered ? 1 : 0.25);
      total += credit;
      lines.push(
        `${step.tool}: ${credit === 1 ? "called as expected" : `${fits(step, pick.call.input) ? "" : "other arguments, "}${ordered ? "" : "out of order, "}`.replace(/, $/, "")} (${credit})`,
      );
    }
    // Nothing expected: full marks, unless extra calls are penalized and some were made.
    const base = expected.length === 0 ? (options.extra === "penalize" && calls.length > 0 ? 0 : 1) : total / expected.length;
    const extra = calls.length - used.size;
    const score = options.extra === "penalize" && extra > 0 ? base * (expected.length / (expected.length + extra)) : base;
    if (options.extra === "penalize" && extra > 0) lines.push(`${extra} call${extra === 1 ? "" : "s"} beyond the expected ones`);
    return { score, reason: lines.join("; ") };
  };
  return Object.assign(judge, { judgeName: options.name ?? "trajectory" });
}
