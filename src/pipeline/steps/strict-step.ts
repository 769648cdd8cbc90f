import { runnerForm } from "../../base/runner-form.js";
import { compactJson } from "../../exits/excerpt.js";
import { llmApiFix } from "../../wire/provider-hosts.js";
import { type HostRule, urlAllowed } from "../hosts.js";
import type { Step, StepContext } from "../types.js";

/** Where a session's strict mode came from: its refusals name the switch actually in force. */
export type StrictSwitch = "env" | "session" | "test" | "run" | "plugin";

/** What a strict session lets through, and where its strict mode came from. */
export interface StrictParts {
  /** HTTP (and connections) to these hosts go out. */
  readonly allowHosts: readonly HostRule[];
  /** Tools that run for real (`allowTools`, `TOOLTRACE_STRICT_ALLOW_TOOLS`), by qualified name. */
  readonly allowTools?: ReadonlySet<string>;
  readonly source?: StrictSwitch;
}

/**
 * The last step in strict mode: whatever would go live (a real tool, the network) is refused, and the
 * refusal fails the test even if the agent recovers. Calls whose end is not live (the mock model) pass, and
 * so do HTTP to a host the session allows (`allowHosts`) and a tool it lets run (`allowTools`).
 */
export function strictStep(parts: StrictParts, explainMiss?: (tool: string, input: unknown) => string | undefined): Step {
  return {
    name: "strict",
    run(ctx, next) {
      if (!ctx.live || (ctx.kind === "http" && urlAllowed(parts.allowHosts, String((ctx.input as { url?: unknown } | null)?.url))))
        return next();
      if (ctx.kind === "tool" && parts.allowTools?.has(ctx.name) === true) return next();
      return ctx.reject(strictMessage(ctx, parts.source ?? "session", explainMiss), { kind: "strict" });
    },
  };
}

/** How to turn strict mode off, for the switch that turned it on. */
const OFF: Readonly<Record<Exclude<StrictSwitch, "plugin">, string>> = {
  session: "create the session without `strict: true`",
  env: "unset TOOLTRACE_STRICT (it makes every session of the run strict, whatever it says)",
  test: "drop `useStrict()` from this test",
  run: "drop `useStrict()` from the setup file (it makes every session of the run strict)",
};

/** How to turn strict mode off, for the switch that turned it on; the run's option, in its runner's form. */
function off(source: StrictSwitch): string {
  if (source !== "plugin") return OFF[source];
  const form = runnerForm();
  return form === undefined
    ? "drop the run's `strict: true` (it makes every session strict)"
    : `drop \`strict: true\` from ${form.home} in ${form.config} (it makes every session strict)`;
}

function strictMessage(
  ctx: StepContext,
  source: StrictSwitch,
  explainMiss: ((tool: string, input: unknown) => string | undefined) | undefined,
): string {
  if (ctx.kind === "tool") {
    const why = explainMiss?.(ctx.name, ctx.input);
    const allow =
      source === "env"
        ? `let this tool run for real: \`createSession({ allowTools: [${JSON.stringify(ctx.name)}] })\` or TOOLTRACE_STRICT_ALLOW_TOOLS=${ctx.name}`
        : `let this tool run for real: \`createSession({ allowTools: [${JSON.stringify(ctx.name)}] })\``;
    return (
      `strict mode: no stub rule matched ${ctx.name}(${compactJson(ctx.input)}), so the real tool did not run. ` +
      `${why === undefined ? "" : `${why} `}Add a rule for this call, ${allow}, or ${off(source)}.`
    );
  }
  if (ctx.kind === "model") {
    return `strict mode: a call to the real model (${ctx.name}) would have gone out to the upstream, so it was refused. Replay it from a cassette, or drop \`upstream\` and script the model with \`llm\`, or ${off(source)}.`;
  }
  const url = String((ctx.input as { url?: unknown } | null)?.url);
  const llm = URL.canParse(url) ? llmApiFix(new URL(url).host) : undefined;
  return (
    `strict mode: ${ctx.name} would have gone out to the network, and nothing answered it, so it was refused. ` +
    (llm === undefined
      ? `Answer it with an HTTP mock or a handler on your MSW server, allow its host (\`allowHosts\`), or ${off(source)}.`
      : `${llm}`)
  );
}
