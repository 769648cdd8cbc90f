import type { Turn } from "../trace/types.js";
import type { YamlEvalCase } from "./yaml-case.js";

/**
 * The case's expectations as a score from 0 to 100, what was missed, and where in the case each missed
 * expectation is written (`missedAt`, JSON pointers in `missed`'s order: `/expected/output/contains/1`).
 */
export function scoreCase(evalCase: YamlEvalCase, turns: readonly Turn[]): { score: number; missed: string[]; missedAt: string[] } {
  const calls = turns.flatMap((turn) => turn.toolCalls.map((call) => call.qualifiedName));
  const text = (turns.at(-1)?.text ?? "").toLowerCase();
  const parts: number[] = [];
  const missed: string[] = [];
  const missedAt: string[] = [];
  const miss = (text: string, pointer: string) => {
    missed.push(text);
    missedAt.push(pointer);
  };
  const share = (found: readonly string[], all: readonly string[], what: string, at: string) => {
    parts.push(found.length / all.length);
    const left = all.filter((item) => !found.includes(item));
    if (left.length > 0) miss(`${what} ${left.join(", ")}`, `${at}/${all.findIndex((item) => !found.includes(item))}`);
  };
  const { tools, sequence, output } = evalCase.expected ?? {};
  if (tools?.length)
    share(
      tools.filter((tool) => calls.includes(tool)),
      tools,
      "tools not called:",
      "/expected/tools",
    );
  if (sequence?.length) {
    let at = 0;
    const inOrder = sequence.filter((tool) => {
      const found = calls.indexOf(tool, at);
      if (found === -1) return false;
      at = found + 1;
      return true;
    });
    share(inOrder, sequence, "not in sequence:", "/expected/sequence");
  }
  if (output?.contains?.length)
    share(
      output.contains.filter((piece) => text.includes(piece.toLowerCase())),
      output.contains,
      "output lacks:",
      "/expected/output/contains",
    );
  const maxLatency = evalCase.thresholds?.max_latency;
  if (maxLatency !== undefined) {
    const took = turns.reduce((sum, turn) => sum + turn.durationMs, 0);
    parts.push(took <= maxLatency ? 1 : 0);
    if (took > maxLatency) miss(`took ${Math.round(took)} ms, over max_latency ${maxLatency}`, "/thresholds/max_latency");
  }
  if (output?.not_contains?.length)
    share(
      output.not_contains.filter((piece) => !text.includes(piece.toLowerCase())),
      output.not_contains,
      "output contains:",
      "/expected/output/not_contains",
    );
  const failed = turns.find((turn) => turn.status !== "completed");
  if (failed) {
    missed.unshift(`turn ${failed.index + 1} ${failed.status}${failed.error ? `: ${failed.error.message}` : ""}`);
    missedAt.unshift(failed.index === 0 ? "/input/query" : `/input/turns/${failed.index - 1}`);
  }
  const score = failed ? 0 : parts.length === 0 ? 100 : Math.round((parts.reduce((a, b) => a + b, 0) / parts.length) * 100);
  return { score, missed, missedAt };
}
