import type { SessionOptions } from "../session/types.js";

/** What the agent module of a YAML eval is given for each variant. */
export interface EvalAgentContext {
  /** The variant's seed: pass it on to anything random (the session gets it too). */
  readonly seed: number;
  /** The case's `name`. */
  readonly caseName: string;
  /** The case's `adapter`, when it names one (evalview's `anthropic`, `openai`, ...). */
  readonly adapter?: string;
  /** The case's `input.context`, as the YAML file gives it. */
  readonly context?: unknown;
}

/**
 * What the agent module builds: the session's agent and tools, and optionally its mock model and stubs.
 * `TMessage` is the agent's history message (an AI SDK agent's `ModelMessage`).
 */
export type EvalAgentSetup<TMessage = unknown> = Omit<SessionOptions<TMessage>, "seed" | "http" | "steps">;

/** The default export of a YAML eval's agent module. */
export type EvalAgentFactory<TMessage = unknown> = (
  context: EvalAgentContext,
) => EvalAgentSetup<TMessage> | Promise<EvalAgentSetup<TMessage>>;

/**
 * Types the default export of the module a YAML eval runs: a function from the variant's seed to the agent and
 * its tools (anything `createSession` takes but the mocks, which come from the YAML file).
 *
 * @example
 * ```ts
 * // evals/flight-agent.ts
 * export default defineEvalAgent(({ seed }) => ({ agent: aiSdkAgent({ model, tools }), tools }));
 * ```
 */
export function defineEvalAgent<TMessage>(factory: EvalAgentFactory<TMessage>): EvalAgentFactory {
  // The runner only hands the session what the factory made: the agent's own message type stays its own.
  return factory as unknown as EvalAgentFactory;
}
