import type { Step } from "../types.js";
import type { RuleSet } from "../../stubs/rule-set.js";
import { outcomeError, outcomeResponse } from "../../stubs/outcome.js";

/** The step that answers tool calls from the session's stub rules: the first matching rule wins. */
export function stubStep(rules: RuleSet): Step {
  return {
    name: "stubs",
    kinds: ["tool"],
    run(ctx, next) {
      if (ctx.kind !== "tool") return next();
      const selection = rules.select(ctx.name, ctx.input);
      if (selection === undefined) return next();
      const source = { kind: "stub", ruleId: selection.ruleId, outcomeIndex: selection.outcomeIndex } as const;
      const { outcome } = selection;
      if (outcome.throw !== undefined) return ctx.fail(outcomeError(outcome.throw), source);
      return ctx.answer(outcomeResponse(outcome.response), source);
    },
  };
}
