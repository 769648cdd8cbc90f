import { InjectedFault } from "../../faults/fault-error.js";
import type { FaultPlan } from "../../faults/fault-plan.js";
import { withPace } from "../../faults/paced-body.js";
import type { Step } from "../types.js";

/**
 * The step injecting a session's faults into its model calls (`createSession({ faults })`), before the
 * stubs, the cassette and the model: a fault answers instead of them (the client meets it in its own shape,
 * given by the catcher), so the mock model's script keeps its step for the retry. A `slow` fault lets the
 * call go on and paces its answer.
 */
export function faultStep(plan: FaultPlan): Step {
  return {
    name: "faults",
    kinds: ["model"],
    run: (ctx, next) => {
      if (ctx.kind !== "model") return next();
      const fired = plan.next();
      if (fired === undefined) return next();
      if (fired.fault.fault === "slow") return ctx.transform(next(), (answer) => withPace(answer, fired));
      return ctx.fail(new InjectedFault(fired, "model call"), { kind: "fault", fault: fired.fault.fault, where: fired.where });
    },
  };
}
