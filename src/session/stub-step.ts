import { TooltraceError } from "../errors.js";
import { answeredBy, markRejected, type ToolCallStep } from "../middleware/tool-call.js";
import type { RuleSet } from "../stubs/rule-set.js";
import { outcomeToResult } from "../stubs/outcome.js";
import { compactJson } from "../trace/format.js";

/** The chain step that answers calls from the session's stub rules (first match wins). */
export function stubStep(rules: RuleSet): ToolCallStep {
  return (context, next) => {
    const selection = rules.select(context.qualifiedName, context.input);
    if (selection === undefined) return next(context.input);
    answeredBy(context, { kind: "stub", ruleId: selection.ruleId, outcomeIndex: selection.outcomeIndex });
    return outcomeToResult(selection.outcome);
  };
}

/** The last step in strict mode: nothing unstubbed runs. */
export function strictStep(onViolation: (message: string) => void): ToolCallStep {
  return (context) => {
    const message =
      `strict mode: no stub rule matched ${context.qualifiedName}(${compactJson(context.input)}), so the real tool did not run. ` +
      `Add a rule for this call, or create the session without \`strict: true\`.`;
    answeredBy(context, { kind: "strict" });
    markRejected(context);
    onViolation(message);
    throw new TooltraceError(message);
  };
}
