import { oneLine } from "../../src/exits/excerpt.js";
import { formatSource } from "../../src/trace/format.js";
import type { Interaction, Turn } from "../../src/trace/types.js";

/** A fault the trace records, and what became of the calls after it. */
export interface FaultOutcome {
  readonly call: Interaction;
  /** A later call of the same kind (the same URL for HTTP) that completed without a fault: the agent's retry. */
  readonly recoveredBy: Interaction | undefined;
}

/** Every interaction of the turns, in the order they started. */
function interactionsOf(turns: readonly Turn[]): Interaction[] {
  return turns.flatMap((turn) => [...turn.toolCalls, ...turn.modelCalls, ...turn.httpCalls]).sort((a, b) => a.seq - b.seq);
}

const target = (call: Interaction) => (call.kind === "http" ? `${call.method} ${call.url.split("?")[0]}` : call.kind);

/** The faults injected into the turns' calls, each with the later call that got through, if any. */
export function faultOutcomes(turns: readonly Turn[]): FaultOutcome[] {
  const all = interactionsOf(turns);
  return all
    .filter((call) => call.answeredBy?.kind === "fault")
    .map((call) => ({
      call,
      recoveredBy: all.find(
        (later) =>
          later.seq > call.seq && target(later) === target(call) && later.status === "completed" && later.answeredBy?.kind !== "fault",
      ),
    }));
}

/** A call as one line: `#3 model call: failed [fault rate_limit (faults[0])]`. */
export function faultLine(call: Interaction): string {
  const name = call.kind === "http" ? `${call.method} ${call.url}` : call.kind === "model" ? "model call" : call.qualifiedName;
  const status = call.kind === "http" && call.statusCode !== undefined ? `${call.status} ${call.statusCode}` : call.status;
  return `#${call.seq} ${name}: ${status} [${formatSource(call.answeredBy, call.kind)}]`;
}

/** The faults and what followed each, for a matcher's message. */
export function faultsSection(outcomes: readonly FaultOutcome[]): string {
  if (outcomes.length === 0) return "Injected faults: none (set `faults` on the session or an HTTP mock)";
  const lines = outcomes.map(
    ({ call, recoveredBy }) =>
      `- ${faultLine(call)}\n    then: ${recoveredBy ? faultLine(recoveredBy) : "no later call of its kind got through"}`,
  );
  return `Injected faults (${outcomes.length}):\n${lines.join("\n")}`;
}

/** Why a turn did not end cleanly, if it did not. */
export function unfinished(turn: Turn): string | undefined {
  if (turn.status === "running") return `turn ${turn.index} is still running`;
  const pending = [...turn.toolCalls, ...turn.modelCalls, ...turn.httpCalls].find((call) => call.status === "pending" || call.late);
  if (pending !== undefined) return `turn ${turn.index} left ${faultLine(pending)}${pending.late ? " (late)" : ""}`;
  if (turn.violations.length > 0) return `turn ${turn.index}: ${oneLine(turn.violations[0] as string)}`;
  return undefined;
}
