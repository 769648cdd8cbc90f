import { noWorkflowCommands, oneLine } from "../exits/excerpt.js";
import type { TooltraceTaskMeta } from "../lifecycle/test-report.js";
import { formatToolCalls } from "../trace/format.js";
import type { ToolCall } from "../trace/types.js";

/** A test's conversations as plain text (no colours), for CI reports that show text: JUnit's properties. */
export function conversationText(meta: TooltraceTaskMeta): string {
  const lines: string[] = [];
  for (const trials of meta.trials ?? []) {
    lines.push(
      `trials: ${trials.passed} of ${trials.count} passed${trials.minPassRate === undefined ? "" : ` (min ${trials.minPassRate})`}`,
    );
    for (const run of trials.runs)
      lines.push(
        `  #${run.index} seed ${run.seed} ${run.passed ? "passed" : `failed: ${oneLine(run.reason ?? "")}`} · ${run.path.join(" → ") || "(no tool calls)"}`,
      );
  }
  for (const session of meta.sessions) {
    lines.push(`${session.name}${session.strict ? " (strict)" : ""}`);
    for (const violation of session.violations) lines.push(`  violation: ${violation.replace(/\r?\n/g, "\n    ")}`);
    for (const turn of session.turns) {
      lines.push(`  user: ${oneLine(turn.userMessage)}`);
      lines.push(formatToolCalls(turn.toolCalls as unknown as readonly ToolCall[], "    "));
      lines.push(turn.error ? `  failed: ${oneLine(`${turn.error.name}: ${turn.error.message}`)}` : `  agent: ${oneLine(turn.text)}`);
      lines.push(`  (${turn.modelCalls.length} model calls, ${turn.usage.totalTokens} tokens)`);
    }
  }
  return noWorkflowCommands(lines.join("\n"));
}
