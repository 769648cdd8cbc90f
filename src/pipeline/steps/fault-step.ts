import { InjectedFault } from "../../faults/fault-error.js";
import type { FaultPlan } from "../../faults/fault-plan.js";
import { tokensMs, withPace } from "../../faults/paced-body.js";
import type { ResolvedReply } from "../../model/types.js";
import type { ModelCall } from "../../trace/types.js";
import { rethrow, settle } from "../../base/settle.js";
import { peeking } from "../peeking.js";
import type { Step } from "../types.js";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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
      // Calls of `ctx.callLLM` (a grader) and a judge's are tooltrace's own, not the agent's: no fault meets them.
      const { provider, judge } = ctx.record as ModelCall;
      if (provider === "tooltrace.callLLM" || judge !== undefined) return next();
      const fired = plan.next();
      if (fired === undefined) return next();
      if (fired.fault.fault === "slow") {
        // The time to first token (and, for a whole JSON answer, its tokens) is spent here: the client waits for
        // its headers, and the trace's duration holds it. A stream's tokens are paced on the wire.
        const { streamed } = ctx.record as ModelCall;
        return ctx.transform(next(), async (answer) => {
          const tokens = (answer as ResolvedReply | undefined)?.usage?.outputTokens ?? 0;
          await sleep((fired.fault.firstTokenMs ?? 0) + (streamed ? 0 : tokensMs(fired, tokens)));
          return withPace(answer, fired);
        });
      }
      const source = { kind: "fault", fault: fired.fault.fault, where: fired.where } as const;
      if (fired.fault.fault === "stream_cut" || fired.fault.fault === "malformed") {
        // The answer is asked for (the mock model's step left for the retry), and the client gets part of it.
        peeking.add(ctx.record as ModelCall);
        return settle(next, (answer) => ctx.fail(new InjectedFault(fired, "model call", answer as ResolvedReply), source), rethrow);
      }
      return ctx.fail(new InjectedFault(fired, "model call"), source);
    },
  };
}
