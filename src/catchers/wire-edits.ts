import type { MockModelRequest } from "../model/types.js";
import type { EditedResult, HiddenRoundEdit, WireEdits } from "../wire/request-edits.js";
import type { WireCall } from "./wire-call.js";

/**
 * What the chain changed in an agent's conversation `view`, from the calls caught in the model's replies:
 * the inputs the model gave where the agent got others, the chain's results where the agent sent others,
 * and the calls of partly sent replies and the `rounds` the agent never saw.
 */
export function editsOf(calls: ReadonlyMap<string, WireCall>, rounds: readonly HiddenRoundEdit[], view: MockModelRequest): WireEdits {
  const inputs = new Map<string, unknown>();
  const results = new Map<string, EditedResult>();
  const extraCalls = new Map<string, HiddenRoundEdit["calls"][number][]>();
  const extraResults = new Map<string, EditedResult[]>();
  const placedCalls = new Set<readonly string[]>();
  const placedResults = new Set<readonly string[]>();
  const hiddenOf = (group: readonly string[]) =>
    group.flatMap((id) => {
      const call = calls.get(id);
      return call === undefined || call.deliver !== undefined ? [] : [call];
    });
  for (const message of view.messages) {
    for (const call of message.toolCalls ?? []) {
      const known = calls.get(call.id);
      if (known === undefined) continue;
      if ("sentInput" in known && !sameJson(known.sentInput, known.input)) inputs.set(call.id, known.input);
      if (known.group !== undefined && !placedCalls.has(known.group)) {
        placedCalls.add(known.group);
        extraCalls.set(
          call.id,
          hiddenOf(known.group).map((hidden) => ({ id: hidden.id, name: hidden.name, input: hidden.input })),
        );
      }
    }
    for (const result of message.toolResults ?? []) {
      const known = calls.get(result.id);
      const settled = known?.settled;
      if (known === undefined || settled === undefined) continue;
      const agent = known.agentResult;
      if (agent === undefined || !sameJson(agent.output, settled.output) || agent.isError !== settled.isError)
        results.set(result.id, { id: result.id, name: known.name, output: settled.output, isError: settled.isError });
      if (known.group !== undefined && !placedResults.has(known.group)) {
        placedResults.add(known.group);
        extraResults.set(
          result.id,
          hiddenOf(known.group).map((hidden) => ({
            id: hidden.id,
            name: hidden.name,
            output: hidden.settled?.output,
            isError: hidden.settled?.isError ?? false,
          })),
        );
      }
    }
  }
  return { inputs, results, extraCalls, extraResults, rounds: rounds };
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
