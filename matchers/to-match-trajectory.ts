import { usageError } from "../src/exits/errors.js";
import { excerpt } from "../src/exits/excerpt.js";
import { describeDifference } from "../src/trace/json-diff.js";
import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { checkToolName, readTrace } from "./lib/read-trace.js";
import { reportSections } from "./lib/report.js";
import { alignTrajectory, type AlignedRow, type TrajectoryOrder } from "./lib/trajectory-align.js";
import {
  actualSteps,
  argsFor,
  describeActual,
  fitStep,
  readExpectedSteps,
  type ActualStep,
  type ArgumentsMode,
  type ExpectedStep,
  type TrajectoryStep,
} from "./lib/trajectory-steps.js";

export type { ArgumentsMode, TrajectoryOrder, TrajectoryStep };

/** Options of `toMatchTrajectory`. */
export interface TrajectoryOptions {
  /** Default `strict`: the same steps in the same order. See {@link TrajectoryOrder}. */
  readonly order?: TrajectoryOrder;
  /**
   * How listed inputs and outputs compare (`exact`, `superset`, `subset`, `ignore` or a function): one mode for
   * every tool, or per tool name with `"*"` for the rest. Default `exact`.
   */
  readonly args?: ArgumentsMode | { readonly [tool: string]: ArgumentsMode };
}

const ORDERS: readonly TrajectoryOrder[] = ["strict", "unordered", "subset", "superset"];

/**
 * The turn's (or the whole session's) calls form this trajectory under the match mode `order`. A failure
 * prints the expected trajectory beside the recorded one, aligned, with what is missing, extra, moved or
 * different (at a JSON pointer).
 *
 * @example
 * ```ts
 * expect(turn).toMatchTrajectory(["search_flights", { tool: "book_flight", input: { flight_id: "FL123" } }]);
 * expect(session).toMatchTrajectory(["lookup", "refund"], { order: "superset", args: { lookup: "ignore" } });
 * ```
 */
export function toMatchTrajectory(
  this: MatcherContext,
  received: unknown,
  expected: readonly TrajectoryStep[],
  options: TrajectoryOptions = {},
): MatcherResult {
  const order = options.order ?? "strict";
  if (!ORDERS.includes(order))
    throw usageError(`toMatchTrajectory: \`order\` is one of ${ORDERS.map((o) => `"${o}"`).join(", ")}; got ${String(order)}.`);
  const steps = readExpectedSteps("toMatchTrajectory", expected);
  const args = argsFor("toMatchTrajectory", options.args);
  const trace = readTrace(received);
  // Thrown, not failed: `.not` would pass on a missing `await` or on a list of calls that knows no model calls.
  if (trace === undefined) {
    const thenable = received !== null && typeof received === "object" && typeof (received as { then?: unknown }).then === "function";
    throw usageError(
      `toMatchTrajectory reads a turn or a session; received ${thenable ? "a promise" : received === null ? "null" : typeof received}.`,
      thenable ? "await it: expect(await session.send(message)).toMatchTrajectory(...)." : undefined,
    );
  }
  if (trace.kind === "calls")
    throw usageError("toMatchTrajectory reads a turn or a session, not its list of tool calls: pass the turn (or the session) itself.");
  for (const step of steps) if (step.kind === "tool") checkToolName("toMatchTrajectory", step.key.slice("tool:".length), trace);
  const actual = actualSteps(trace.turns, steps);
  const alignment = alignTrajectory(order, steps, actual, (i, j) => fitStep(this, args, steps[i] as ExpectedStep, actual[j] as ActualStep));
  return {
    pass: alignment.pass,
    message: () =>
      reportSections(
        this,
        "toMatchTrajectory",
        `${this.isNot ? "not " : ""}a trajectory of ${steps.length} step${steps.length === 1 ? "" : "s"} (order "${order}")`,
        alignment.pass ? "a trajectory that matches" : summary(alignment.rows, order),
        [`Trajectory, expected beside recorded (${trace.kind}):\n${table(alignment.rows, steps, actual)}`],
      ),
  };
}

/** What broke the match: only what this mode counts (extra calls are allowed under `superset`, missing ones under `subset`). */
function summary(rows: readonly AlignedRow[], order: TrajectoryOrder): string {
  const counted = (kind: AlignedRow["kind"]) => !(order === "superset" && kind === "extra") && !(order === "subset" && kind === "missing");
  const count = (kind: AlignedRow["kind"]) => (counted(kind) ? rows.filter((row) => row.kind === kind).length : 0);
  const parts = [
    [count("missing"), "missing"],
    [count("extra"), "extra"],
    [count("moved"), "out of order"],
    [count("different"), "different"],
  ] as const;
  return parts
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${what}`)
    .join(", ");
}

const MARK: Record<AlignedRow["kind"], string> = { same: "✓", different: "≠", missing: "-", extra: "+", moved: "↕" };
/** The widest the expected column gets; longer steps are cut with an ellipsis. */
const MAX_WIDTH = 60;

function table(rows: readonly AlignedRow[], expected: readonly ExpectedStep[], actual: readonly ActualStep[]): string {
  const WIDTH = Math.min(MAX_WIDTH, Math.max(12, ...expected.map((step, i) => `${i + 1}. ${step.label}`.length)));
  const left = (i: number | undefined) => (i === undefined ? "" : excerpt(`${i + 1}. ${expected[i]?.label ?? ""}`, WIDTH));
  const right = (j: number | undefined) => (j === undefined ? "" : `${j + 1}. ${describeActual(actual[j] as ActualStep)}`);
  const lines = [`    ${"expected".padEnd(WIDTH)}  recorded`];
  for (const row of rows) {
    const e = "expected" in row ? row.expected : undefined;
    const a = "actual" in row ? row.actual : row.kind === "missing" ? row.near?.actual : undefined;
    const note =
      row.kind === "missing"
        ? row.near
          ? "  (missing: the closest differs)"
          : "  (missing)"
        : row.kind === "extra"
          ? "  (extra)"
          : row.kind === "moved"
            ? "  (out of order)"
            : "";
    lines.push(`  ${MARK[row.kind]} ${left(e).padEnd(WIDTH)}  ${row.kind === "missing" && !row.near ? "" : right(a)}${note}`);
    const differences = row.kind === "different" ? row.differences : row.kind === "missing" ? (row.near?.differences ?? []) : [];
    for (const difference of differences) lines.push(`      ${describeDifference(difference)}`);
  }
  if (rows.length === 0) lines.push("    (no steps on either side)");
  return lines.join("\n");
}
