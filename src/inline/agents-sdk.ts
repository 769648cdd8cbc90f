/**
 * `@openai/agents` as a test file's agent imports it under tooltrace's plugin: the OpenAI Agents SDK, whose
 * `tool()` makes tools that join a running session at their first call, so stub rules answer them and strict
 * mode holds wherever the agent defines them.
 *
 * @module tooltrace/inline/agents-sdk
 */
import * as agents from "@openai/agents";
import { adoptInline, markInlineLibrary } from "./adopt-inline.js";

export * from "@openai/agents";

type Invoke = (this: unknown, ...args: unknown[]) => unknown;

/** The Agents SDK's `tool()`: the tool it makes joins the running session at its first call there. */
export const tool: typeof agents.tool = ((options: unknown) => {
  const made = (agents.tool as (options: unknown) => { invoke: Invoke })(options);
  const invoke = made.invoke;
  made.invoke = function invokeInline(this: unknown, ...args: unknown[]) {
    // Newly joined: its `invoke` is caught now, and the call goes through the session's chain.
    if (adoptInline([made], "an Agents SDK tool()")) return made.invoke(...args);
    return invoke.apply(this, args);
  };
  return made;
}) as typeof agents.tool;
markInlineLibrary("@openai/agents");
