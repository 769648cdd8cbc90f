import { compactJson } from "../../exits/excerpt.js";
import { type HostRule, urlAllowed } from "../hosts.js";
import type { Step, StepContext } from "../types.js";

/**
 * The last step in strict mode: whatever would go live (a real tool, the network) is refused, and the
 * refusal fails the test even if the agent recovers. Calls whose end is not live (the mock model) pass, and
 * so does HTTP to a host the session allows (`allowHosts`).
 */
export function strictStep(allowHosts: readonly HostRule[], explainMiss?: (tool: string, input: unknown) => string | undefined): Step {
  return {
    name: "strict",
    run(ctx, next) {
      if (!ctx.live || (ctx.kind === "http" && urlAllowed(allowHosts, String((ctx.input as { url?: unknown } | null)?.url)))) return next();
      return ctx.reject(strictMessage(ctx, explainMiss), { kind: "strict" });
    },
  };
}

function strictMessage(ctx: StepContext, explainMiss: ((tool: string, input: unknown) => string | undefined) | undefined): string {
  if (ctx.kind === "tool") {
    const why = explainMiss?.(ctx.name, ctx.input);
    return (
      `strict mode: no stub rule matched ${ctx.name}(${compactJson(ctx.input)}), so the real tool did not run. ` +
      `${why === undefined ? "" : `${why} `}Add a rule for this call, or create the session without \`strict: true\`.`
    );
  }
  if (ctx.kind === "model") {
    return `strict mode: a call to the real model (${ctx.name}) would have gone out to the upstream, so it was refused. Replay it from a cassette, or drop \`upstream\` and script the model with \`llm\`, or create the session without \`strict: true\`.`;
  }
  return (
    `strict mode: ${ctx.name} would have gone out to the network, and nothing answered it, so it was refused. ` +
    `Answer it with an HTTP mock or a handler on your MSW server, allow its host (\`allowHosts\`), or create the session without \`strict: true\`.`
  );
}
