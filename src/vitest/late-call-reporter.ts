import { outText, printOut } from "../exits/out.js";
import type { LateCallReport } from "../lifecycle/late-calls.js";

/** Where a test file's task carries the late calls of files that had already ended when they arrived. */
export const LATE_CALLS_META = "tooltraceLateCalls";

/** The part of a Vitest test module the reporter reads and marks (structural: Vitest's types are not a dependency). */
interface ReportedModule {
  readonly moduleId: string;
  readonly task: {
    readonly meta?: Record<string, unknown>;
    result?: { state?: string; errors?: { name?: string; message: string; stack?: string }[] };
  };
}

/**
 * A reporter in Vitest's main process, added by the plugin. A call that arrived after its test file ended
 * (with `--no-isolate`, while another file ran in the same worker) travels on the task of the file that was
 * running; this marks the file it came from as failed, with the report, before the run's summary is printed,
 * so the run fails and names the right file, never the one that happened to be running.
 */
export function lateCallReporter(): { onTestModuleEnd(module: ReportedModule): void } {
  const ended = new Map<string, ReportedModule>();
  const failFile = (report: LateCallReport) => {
    const target = report.file === undefined ? undefined : ended.get(report.file);
    const error = { name: "Error", message: outText("error", `call arrived after its test file ended:\n- ${report.line}`) };
    if (target === undefined) {
      printOut("console", `${error.message}\n  (from ${report.file ?? "an unknown file"})`, "error");
      process.exitCode = 1;
      return;
    }
    target.task.result ??= {};
    target.task.result.state = "fail";
    target.task.result.errors = [...(target.task.result.errors ?? []), error];
  };
  return {
    onTestModuleEnd(module) {
      ended.set(module.moduleId, module);
      const late = module.task.meta?.[LATE_CALLS_META];
      if (Array.isArray(late)) for (const report of late as LateCallReport[]) failFile(report);
    },
  };
}
