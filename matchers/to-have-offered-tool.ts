import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { modelCallsSection, offeredTools } from "./lib/model-calls.js";
import { checkToolName, notATrace, readTrace } from "./lib/read-trace.js";
import { reportSections } from "./lib/report.js";
import { usageError } from "../src/exits/errors.js";

/** Some model call of the turn (or session) was offered the tool. */
export function toHaveOfferedTool(this: MatcherContext, received: unknown, name: string): MatcherResult {
  if (typeof name !== "string" || name === "") throw usageError("toHaveOfferedTool(name): pass the tool's name.");
  const trace = readTrace(received);
  if (trace === undefined || trace.kind === "calls")
    return { pass: false, message: () => notATrace("toHaveOfferedTool (a turn or a session)", received) };
  checkToolName("toHaveOfferedTool", name, trace);
  const calls = trace.turns.flatMap((turn) => turn.modelCalls);
  const offering = calls.filter((call) => offeredTools(call).includes(name)).length;
  return {
    pass: offering > 0,
    message: () =>
      reportSections(
        this,
        "toHaveOfferedTool",
        `${this.isNot ? "no" : "a"} model call offered "${name}"`,
        `${offering} of ${calls.length} model calls offered it`,
        [modelCallsSection(trace.turns)],
      ),
  };
}
