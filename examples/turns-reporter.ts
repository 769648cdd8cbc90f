import type { Reporter, TestCase } from "vitest/node";
import { formatToolCalls } from "tooltrace";
import type { TooltraceTaskMeta } from "tooltrace/vitest";

/**
 * A small reporter that prints each eval's conversation from `task.meta.tooltrace`, which the plugin fills:
 * the user message, the numbered tool calls with which rule answered, and the reply.
 */
export default class TurnsReporter implements Reporter {
  onTestCaseResult(testCase: TestCase): void {
    const meta = (testCase.meta() as { tooltrace?: TooltraceTaskMeta }).tooltrace;
    if (!meta) return;
    const lines = [`\n● ${testCase.fullName} — ${testCase.result().state}`];
    for (const session of meta.sessions) {
      for (const turn of session.turns) {
        lines.push(`  user: ${turn.userMessage}`);
        lines.push(formatToolCalls(turn.toolCalls, "    "));
        lines.push(`  agent: ${turn.text}`);
        lines.push(`  (${turn.modelCalls.length} model calls, ${turn.usage.totalTokens} tokens)`);
      }
    }
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}
