import { userCallSite } from "../base/call-site.js";
import { runFlags } from "../base/run-flags.js";
import { isWireAgent } from "../catchers/wire-agent.js";
import { StubConfigError, usageError } from "../exits/errors.js";
import { currentScope } from "../lifecycle/scope.js";
import { inlineLibrariesLoaded } from "../pipeline/inline-libraries.js";
import { SessionImpl } from "./session.js";
import type { Session, SessionOptions } from "./types.js";

export { MAX_CALLS_PER_SESSION } from "../pipeline/pipeline.js";

/**
 * Creates a session over an agent: checks the tools and stubs (throwing a `StubConfigError` before any
 * call), patches the tools in place, and registers the session with the running test so the plugin
 * restores the tools and checks unused rules and violations when the test ends.
 *
 * @example
 * ```ts
 * const session = createSession({ agent, tools, stubs: [{ id: "tasks", tool: "list_tasks", outcome: { response: { tasks: [] } } }] });
 * const turn = await session.send("What tasks do I have?");
 * expect(turn).toHaveCalledTool("list_tasks", { count: 1 });
 * ```
 */
export function createSession<TMessage = unknown>(options: SessionOptions<TMessage>): Session<TMessage> {
  checkRunnerSetup();
  const scope = currentScope();
  let session: SessionImpl<TMessage>;
  try {
    checkToolsGiven(options);
    // In a trial that caches its exchanges, a session naming no cassette takes the trial's (keyed by its seed).
    const cassette = options.cassette ?? scope?.sessionCassette;
    session = new SessionImpl(cassette === undefined ? options : { ...options, cassette }, {
      testName: scope?.testName,
      testPath: scope?.testPath,
      indexInTest: scope?.sessionCount ?? 0,
      test: scope?.test ?? scope?.testName,
      scope,
    });
  } catch (error) {
    const site = error instanceof StubConfigError ? userCallSite() : undefined;
    if (site !== undefined) (error as StubConfigError).message += `\n  Session created at ${site}`;
    throw error;
  }
  scope?.add(session);
  return session;
}

/** Stubs and strict mode promise what answers the agent's tools: without `tools` there is nothing to catch. */
function checkToolsGiven<TMessage>(options: SessionOptions<TMessage>): void {
  if (options === null || typeof options !== "object") throw usageError("createSession(options): pass { agent, tools?, stubs?, strict? }.");
  if (options.tools !== undefined || options.subagents !== undefined || options.mcp !== undefined || isWireAgent(options.agent)) return;
  // The agent's library catches the tools it is handed inline, and what the model asks for is reconciled with
  // what reached tooltrace: with a model in play, the rules and strict mode meet the agent's tools there.
  if (inlineLibrariesLoaded.size > 0 && (options.llm !== undefined || options.upstream !== undefined)) return;
  const stubs = Array.isArray(options.stubs) && options.stubs.length > 0;
  if (!stubs && options.strict !== true) return;
  throw new StubConfigError(
    { pointer: "" },
    `${stubs ? "`stubs`" : "`strict: true`"} without \`tools\`: tooltrace catches only the executors you give it, so every call of the agent's tools would run the real tool.`,
    "pass the agent's tools (the same objects it calls): `createSession({ agent, tools, ... })`; for an agent without tools, pass `tools: {}`; for tools the agent defines inline (in `generateText`, a `ToolNode`, `tool()`), run it under the plugin, which catches them where its library receives them.",
    "session",
  );
}

/**
 * Under Vitest or Jest without tooltrace's setup, a session would run with no hermetic guard, no matchers and no
 * checks when its test ends: the most common first mistake, refused with the line that fixes it.
 */
function checkRunnerSetup(): void {
  if (runFlags.setup !== undefined) return;
  if ("__vitest_worker__" in globalThis) {
    throw usageError(
      "tooltrace's Vitest plugin is not in this run's config: without it the run is not hermetic, its matchers (toHaveCalledTool) are missing and *.eval.ts files are not collected.",
      'add it to vitest.config.ts: `import { tooltrace } from "tooltrace/vitest";` and `plugins: [tooltrace()]` (`npx tooltrace init` does it).',
    );
  }
  if (process.env.JEST_WORKER_ID !== undefined && "expect" in globalThis) {
    throw usageError(
      "tooltrace's Jest setup is not in this run's config: without it the run is not hermetic and its matchers (toHaveCalledTool) are missing.",
      'add it to your Jest config: `"setupFilesAfterEnv": ["tooltrace/jest"]`.',
    );
  }
}
