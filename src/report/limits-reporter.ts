import { message } from "../exits/errors.js";
import { printOut } from "../exits/out.js";
import type { LimiterKeyStats } from "../base/limiter-host.js";
import { resetRunLimiterStats, runLimiterStats } from "../base/provider-gate.js";

/** One line per `provider/model` the run's limiter saw: its limit, the most at once, and what waited. */
export function limitsText(stats: ReadonlyMap<string, Readonly<LimiterKeyStats>>): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const lines = [...stats].map(([key, counted]) => {
    const limit = counted.maxInFlight === undefined ? "no limit" : `at most ${counted.maxInFlight} at once (peak ${counted.peak})`;
    const queued = counted.queued === 0 ? "" : `, ${counted.queued} queued ${seconds(counted.queuedMs)}`;
    const limited =
      counted.rateLimited === 0
        ? ""
        : `, ${counted.rateLimited} rate limit${counted.rateLimited === 1 ? "" : "s"} waited out (${seconds(counted.rateLimitedMs)})`;
    return `  ${key}: ${limit}, ${counted.granted} request${counted.granted === 1 ? "" : "s"}${queued}${limited}`;
  });
  return `provider limits:\n${lines.join("\n")}`;
}

/** A Vitest reporter the plugin adds when the run has `providers` limits: the limiter's counts when the run ends. */
export function limitsReporter(): { onTestRunStart(): Promise<void>; onTestRunEnd(): Promise<void> } {
  return {
    // Watch mode's reruns share the limiter: each run's line counts that run.
    onTestRunStart: () => resetRunLimiterStats(),
    onTestRunEnd: async () => {
      const stats = await runLimiterStats();
      if (stats !== undefined && stats.size > 0) printOut("console", `\n${message(limitsText(stats))}`, "stdout");
    },
  };
}
