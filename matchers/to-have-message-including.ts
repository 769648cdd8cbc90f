import { compactJson } from "../src/exits/excerpt.js";
import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { notATrace, readTrace } from "./lib/read-trace.js";
import { report } from "./lib/report.js";
import { TooltraceError, usageError } from "../src/exits/errors.js";

/**
 * What the agent said to the user (its final text and the `assistantTexts` it returned, in the turn or in any
 * turn of the session) includes the text or matches the RegExp. The model's replies do not count: an agent
 * that drops them has a bug this should catch. When a turn's agent said nothing at all although the model
 * replied with text, the matcher throws (with `.not` too) rather than pass by accident.
 */
export function toHaveMessageIncluding(this: MatcherContext, received: unknown, expected: string | RegExp): MatcherResult {
  if (typeof expected !== "string" && !(expected instanceof RegExp))
    throw usageError("toHaveMessageIncluding(text): pass a string or a RegExp.");
  const trace = readTrace(received);
  if (trace === undefined || trace.kind === "calls")
    return { pass: false, message: () => notATrace("toHaveMessageIncluding (a turn or a session)", received) };
  for (const turn of trace.turns) {
    const said = turn.text !== "" || turn.assistantTexts.some((text) => text !== "");
    const modelSaid = turn.modelCalls.map((call) => call.reply.text).filter((text) => text !== "");
    if (!said && turn.status === "completed" && modelSaid.length > 0) {
      throw new TooltraceError(
        `toHaveMessageIncluding: the agent said nothing in turn ${turn.index} (its reply text is ""), though the model replied ${compactJson(modelSaid.at(-1), 80)}. ` +
          "Is the agent reading the model's reply? Assert on turn.modelCalls if the silence is intended.",
      );
    }
  }
  const texts = trace.turns.flatMap((turn) =>
    turn.assistantTexts.includes(turn.text) || turn.text === "" ? turn.assistantTexts : [...turn.assistantTexts, turn.text],
  );
  const pass = texts.some((text) => {
    if (typeof expected === "string") return text.includes(expected);
    expected.lastIndex = 0;
    return expected.test(text);
  });
  const shown = () =>
    texts.length === 0 ? "(no assistant text)" : texts.map((text, i) => `  ${i + 1}. ${JSON.stringify(text)}`).join("\n");
  return {
    pass,
    message: () =>
      report(
        this,
        "toHaveMessageIncluding",
        `assistant text including ${typeof expected === "string" ? JSON.stringify(expected) : String(expected)}`,
        `${texts.length} assistant message${texts.length === 1 ? "" : "s"}`,
        trace.calls,
        `Assistant text:\n${shown()}`,
      ),
    actual: texts.join("\n"),
    expected,
  };
}
