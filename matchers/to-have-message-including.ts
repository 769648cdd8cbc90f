import type { MatcherContext, MatcherResult } from "./lib/matcher-context.js";
import { notATrace, readTrace } from "./lib/read-trace.js";
import { report } from "./lib/report.js";

/** Some assistant text of the turn (or of any turn of the session) includes the text or matches the RegExp. */
export function toHaveMessageIncluding(this: MatcherContext, received: unknown, expected: string | RegExp): MatcherResult {
  if (typeof expected !== "string" && !(expected instanceof RegExp)) throw new TypeError("[tooltrace] toHaveMessageIncluding(text): pass a string or a RegExp.");
  const trace = readTrace(received);
  if (trace === undefined || trace.kind === "calls") return { pass: false, message: () => notATrace("toHaveMessageIncluding (a turn or a session)", received) };
  const texts = trace.turns.flatMap((turn) => (turn.assistantTexts.includes(turn.text) || turn.text === "" ? turn.assistantTexts : [...turn.assistantTexts, turn.text]));
  const pass = texts.some((text) => {
    if (typeof expected === "string") return text.includes(expected);
    expected.lastIndex = 0;
    return expected.test(text);
  });
  const shown = texts.length === 0 ? "(no assistant text)" : texts.map((text, i) => `  ${i + 1}. ${JSON.stringify(text)}`).join("\n");
  return {
    pass,
    message: () =>
      report(this, "toHaveMessageIncluding", `assistant text including ${typeof expected === "string" ? JSON.stringify(expected) : String(expected)}`, `${texts.length} assistant message${texts.length === 1 ? "" : "s"}`, trace.calls, `Assistant text:\n${shown}`),
    actual: texts.join("\n"),
    expected,
  };
}
