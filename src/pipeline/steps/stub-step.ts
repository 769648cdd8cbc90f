import type { Step } from "../types.js";
import type { RuleSet } from "../../stubs/rule-set.js";
import { outcomeError, outcomeResponse } from "../../stubs/outcome.js";
import { faultAsError } from "../../faults/fault-as-error.js";
import { InjectedFault } from "../../faults/fault-error.js";

/** The step that answers tool calls from the session's stub rules: the first matching rule wins. */
export function stubStep(rules: RuleSet): Step {
  return {
    name: "stubs",
    kinds: ["tool"],
    run(ctx, next) {
      if (ctx.kind !== "tool") return next();
      const selection = rules.select(ctx.name, ctx.input);
      if (selection === undefined) return next();
      const { outcome, fault } = selection;
      if (fault !== undefined && fault.fault.fault !== "slow")
        return ctx.fail(faultAsError(new InjectedFault(fault, "call")), { kind: "fault", fault: fault.fault.fault, where: fault.where });
      const source = { kind: "stub", ruleId: selection.ruleId, outcomeIndex: selection.outcomeIndex } as const;
      const answer = () =>
        outcome.throw !== undefined ? ctx.fail(outcomeError(outcome.throw), source) : ctx.answer(outcomeResponse(outcome.response), source);
      if (fault === undefined) return answer();
      // A slow rule answers after its time to first byte: the tool becomes asynchronous, as a slow API makes it.
      return new Promise((resolve) => setTimeout(resolve, fault.fault.firstTokenMs ?? 0)).then(answer);
    },
  };
}
