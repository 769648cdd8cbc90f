import type { Middleware } from "./types.js";
import { usageError } from "../exits/errors.js";

/** Options of {@link grader}. */
export interface GraderOptions {
  /**
   * The expected answer: text the answer must include (case-insensitive), a pattern it must match, or a
   * function of the user message giving one of those (one grader for many questions).
   */
  readonly expected: string | RegExp | ((message: string) => string | RegExp);
  /**
   * `contains` (default) checks the answer itself; `llm` asks the session's model (`createSession({ llm })`)
   * whether the answer says what is expected, through `ctx.callLLM`, and reads a reply starting with PASS or FAIL.
   */
  readonly by?: "contains" | "llm";
  /** Default `grader`. */
  readonly name?: string;
}

/** What the grader keeps in `turn.results[name]`. */
export interface GraderResult {
  readonly pass: boolean;
  readonly expected: string;
  readonly answer: string;
  /** The model's reason, when graded `by: "llm"`. */
  readonly reason?: string;
}

/**
 * A middleware that grades the final answer against an expected value once the agent has answered, into
 * `turn.results.grader` (`{ pass, expected, answer }`).
 *
 * @example
 * ```ts
 * const turn = await createSession({ agent, tools, middleware: [grader({ expected: "enable_canary_bypass" })] }).send(question);
 * expect(turn).toHaveResult("grader", { pass: true });
 * ```
 */
export function grader(options: GraderOptions): Middleware {
  const by = options.by ?? "contains";
  if (by !== "contains" && by !== "llm") throw usageError(`grader({ by }): use "contains" or "llm", got ${JSON.stringify(by)}.`);
  return {
    name: options.name ?? "grader",
    async afterEval({ message, answer, ctx }): Promise<GraderResult> {
      const expected = typeof options.expected === "function" ? options.expected(message) : options.expected;
      const shown = typeof expected === "string" ? expected : String(expected);
      if (by === "contains") {
        const pass = typeof expected === "string" ? answer.toLowerCase().includes(expected.toLowerCase()) : answer.search(expected) !== -1;
        return { pass, expected: shown, answer };
      }
      const verdict = await ctx.callLLM(
        `Grade an answer.\nQuestion: ${message}\nAnswer: ${answer}\nExpected: ${shown}\nReply PASS or FAIL, then one line saying why.`,
      );
      return { pass: /^\s*PASS\b/i.test(verdict), expected: shown, answer, reason: verdict.replace(/^\s*(PASS|FAIL)\b[\s:.-]*/i, "") };
    },
  };
}
