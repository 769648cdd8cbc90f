/**
 * `ai` as a test file's agent imports it under tooltrace's plugin: the AI SDK itself, with `generateText`,
 * `streamText` and its agents handing a running session the tools given to them inline, so stub rules answer
 * them and strict mode holds without moving them out of the agent's code.
 *
 * @module tooltrace/inline/ai
 */
import * as ai from "ai";
import { adoptInline, markInlineLibrary } from "./adopt-inline.js";

export * from "ai";

type WithTools = { readonly tools?: unknown } | undefined;
type AgentClass = new (
  ...args: never[]
) => { readonly tools?: unknown; generate(...args: unknown[]): unknown; stream(...args: unknown[]): unknown };

/** The AI SDK's `generateText`: the tools it is given join the running session first. */
export const generateText: typeof ai.generateText = ((options: WithTools) => {
  adoptInline(options?.tools, "generateText({ tools })");
  return (ai.generateText as (options: unknown) => unknown)(options);
}) as typeof ai.generateText;

/** The AI SDK's `streamText`: the tools it is given join the running session first. */
export const streamText: typeof ai.streamText = ((options: WithTools) => {
  adoptInline(options?.tools, "streamText({ tools })");
  return (ai.streamText as (options: unknown) => unknown)(options);
}) as typeof ai.streamText;

/** An agent class whose `generate` and `stream` hand the running session its tools first. */
function adopting<T extends AgentClass | undefined>(Base: T, name: string): T {
  if (Base === undefined) return Base;
  const Agent = Base as AgentClass;
  return class extends Agent {
    override generate(...args: unknown[]): unknown {
      adoptInline(this.tools, `new ${name}({ tools })`);
      return super.generate(...args);
    }
    override stream(...args: unknown[]): unknown {
      adoptInline(this.tools, `new ${name}({ tools })`);
      return super.stream(...args);
    }
  } as unknown as T;
}

const namespace = ai as unknown as Record<string, AgentClass | undefined>;
/** The AI SDK's `ToolLoopAgent` (from ai 6), whose tools join the running session when it runs. */
export const ToolLoopAgent = adopting(namespace.ToolLoopAgent, "ToolLoopAgent") as unknown as typeof ai.ToolLoopAgent;
/** The AI SDK's `Experimental_Agent` (ai 5 and 6), whose tools join the running session when it runs. */
export const Experimental_Agent = adopting(namespace.Experimental_Agent, "Experimental_Agent") as unknown as typeof ai.Experimental_Agent;
markInlineLibrary("ai");
