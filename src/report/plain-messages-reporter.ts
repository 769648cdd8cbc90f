import { stripVTControlCharacters } from "node:util";
import type { TooltraceTaskMeta } from "../lifecycle/test-report.js";
import { conversationText } from "./conversation-text.js";
import { xmlSafe } from "../exits/escape.js";
import { outText } from "../exits/out.js";

interface TaskWithErrors {
  id?: string;
  type?: string;
  meta?: { tooltrace?: TooltraceTaskMeta };
  logs?: { content: string; type: "stdout" | "stderr"; time: number; taskId?: string; size?: number }[];
  result?: { state?: string; errors?: { message?: string }[] };
  tasks?: TaskWithErrors[];
}

/**
 * Added first among the reporters when a JUnit reporter runs: failure messages lose their terminal colours
 * before any reporter writes them (JUnit's `message` attribute kept the escapes), and each failing eval's
 * conversation becomes its test case's `system-out`, read from the test's metadata: so it is there after
 * `--merge-reports` too, where the shards ran without JUnit.
 */
export function plainMessagesReporter(): { onTestRunEnd(modules: readonly { task: TaskWithErrors }[]): void } {
  const visit = (task: TaskWithErrors): void => {
    for (const error of task.result?.errors ?? [])
      if (typeof error.message === "string") error.message = stripVTControlCharacters(error.message);
    const meta = task.meta?.tooltrace;
    if (task.type === "test" && task.result?.state === "fail" && meta !== undefined && meta.sessions.length > 0) {
      const content = `${outText("junit output", xmlSafe(conversationText(meta)))}\n`;
      task.logs = [
        ...(task.logs ?? []),
        { content, type: "stdout", time: Date.now(), size: content.length, ...(task.id ? { taskId: task.id } : {}) },
      ];
    }
    for (const child of task.tasks ?? []) visit(child);
  };
  return {
    onTestRunEnd(modules) {
      for (const module of modules) visit(module.task);
    },
  };
}
