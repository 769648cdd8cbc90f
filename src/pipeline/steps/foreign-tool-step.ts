import type { Step } from "../types.js";

/** First in line for an executor the session was not given (another session patched it): strict refuses it. */
export function foreignToolStep(sessionName: string): Step {
  return {
    name: "session tools",
    kinds: ["tool"],
    run: (ctx, next) => {
      if (!ctx.strict) return next();
      return ctx.reject(
        `strict mode: ${ctx.name} is not among ${sessionName}'s tools, so it did not run. Pass it in \`tools\`, or create the session without \`strict: true\`.`,
        { kind: "strict" },
      );
    },
  };
}
