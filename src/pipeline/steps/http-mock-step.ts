import type { HttpRequestView } from "../../http-mocks/types.js";
import { type HttpMockSet, mockResponse } from "../../http-mocks/mock-set.js";
import type { Step } from "../types.js";
import { InjectedFault } from "../../faults/fault-error.js";
import { faultResponse } from "../../http-mocks/fault-response.js";

/** The step answering HTTP exchanges from a session's HTTP mocks, beside the stubs. */
export function httpMockStep(mocks: HttpMockSet): Step {
  return {
    name: "http mocks",
    kinds: ["http"],
    run: (ctx, next) => {
      if (ctx.kind !== "http") return next();
      const selection = mocks.select(ctx.input as HttpRequestView);
      if (selection === undefined) return next();
      if ("fault" in selection) {
        const fired = selection.fault;
        const injected = new InjectedFault(fired, "request");
        const source = { kind: "fault", fault: fired.fault.fault, where: fired.where } as const;
        if (fired.fault.fault === "network_error") return ctx.fail(new TypeError("fetch failed", { cause: injected }), source);
        return ctx.answer(faultResponse(injected), source);
      }
      const { mockId: ruleId, outcomeIndex, delayMs } = selection;
      const source = { kind: "stub", ruleId, outcomeIndex, ...(delayMs > 0 ? { delayMs } : {}) } as const;
      const { outcome } = selection;
      if ("networkError" in outcome) return ctx.fail(new TypeError(`fetch failed: ${outcome.networkError}`), source);
      const response = mockResponse(outcome);
      if (selection.delayMs === 0) return ctx.answer(response, source);
      return new Promise((resolve) => setTimeout(resolve, selection.delayMs)).then(() => ctx.answer(response, source));
    },
  };
}
