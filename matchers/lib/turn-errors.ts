import { relative, sep } from "node:path";
import { oneLine } from "../../src/exits/excerpt.js";
import type { TraceError } from "../../src/trace/types.js";
import { readTrace } from "./read-trace.js";

/**
 * The agent's own error, for a matcher's failure on a turn that failed: its type, its message and where the
 * user's code threw it, said before the calls (a `TypeError` the agent threw, a refusal it did not catch), which
 * otherwise sat in `turn.error` alone while the message said "0 matching calls".
 */
export function turnErrorSection(received: unknown): string | undefined {
  const trace = readTrace(received);
  const failed = (trace?.turns ?? []).filter((turn) => turn.status === "failed" && turn.error !== undefined);
  if (failed.length === 0) return undefined;
  const lines = failed.map((turn) => {
    const error = turn.error as TraceError;
    const where = error.at === undefined ? "" : `\n    at ${shown(error.at)}`;
    return `  turn ${turn.index}: ${oneLine(`${error.name}: ${withoutRefusal(error.message, turn.violations)}`)}${where}`;
  });
  return `The agent's turn failed:\n${lines.join("\n")}`;
}

/** Puts the section before the list of calls (or at the end), unless the message already says the error. */
export function withTurnErrors(message: string, section: string | undefined): string {
  if (section === undefined) return message;
  const first = section.split("\n")[1]?.replace(/^ {2}turn \d+: /, "") ?? "";
  if (first !== "" && message.includes(first)) return message;
  const at = message.search(/\n\n(Tool calls \(|Model calls)/);
  return at === -1 ? `${message}\n\n${section}` : `${message.slice(0, at)}\n\n${section}${message.slice(at)}`;
}

function shown(site: string): string {
  const path = relative(process.cwd(), site);
  return path.startsWith(`..${sep}`) ? site : path;
}

/** An error that carries a violation of the turn (a refused `fetch`: "fetch failed: <the refusal>") names it once. */
function withoutRefusal(text: string, violations: readonly string[]): string {
  for (const violation of violations) {
    const first = violation.replace(/^\[tooltrace\] /, "").split("\n")[0] ?? "";
    if (first !== "" && text.includes(first))
      return `${text.replace(`: ${first}`, "").replace(first, "").trim()} (tooltrace refused it: the violation is said once, with the test)`;
  }
  return text;
}
