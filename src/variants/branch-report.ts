import { noWorkflowCommands, oneLine } from "../base/excerpt.js";
/** One run as the branch report prints it. */
export interface BranchRun {
  readonly index: number;
  readonly seed: number;
  readonly passed: boolean;
  readonly path: readonly string[];
  readonly durationMs: number;
  readonly tokens?: number;
  readonly reason?: string;
}

/**
 * evalview's per-variant report: the mocks applied, each variant with its branch, and each branch's steps.
 * Runs that took the same steps share a branch.
 *
 * ```
 * ▶ flight-booking-sim  (seed=42, variants=3)
 *   Mocks applied:
 *     · tool:search_flights ×3
 *   Variants:
 *     · #0 branch=b0 412 tokens 18ms ✓
 *   Branches:
 *     · b0: step-0:search_flights → step-1:book_flight
 * ```
 */
export function branchReport(name: string, runs: readonly BranchRun[], applied: ReadonlyMap<string, number>, noun = "variants"): string {
  const branches = new Map<string, string>();
  for (const run of runs) {
    const key = run.path.join("\u0000");
    if (!branches.has(key)) branches.set(key, `b${branches.size}`);
  }
  const lines = [`▶ ${name}  (seed=${runs[0]?.seed ?? 1}, ${noun}=${runs.length})`];
  if (applied.size > 0) {
    lines.push("  Mocks applied:");
    for (const [what, count] of applied) lines.push(`    · ${what} ×${count}`);
  }
  lines.push(`  ${noun[0]?.toUpperCase()}${noun.slice(1)}:`);
  for (const run of runs) {
    const branch = branches.get(run.path.join("\u0000"));
    const tokens = run.tokens !== undefined ? ` ${run.tokens} tokens` : "";
    const verdict = run.passed ? "✓" : `✗ ${oneLine(run.reason ?? "")}`.trimEnd();
    lines.push(`    · #${run.index} branch=${branch}${tokens} ${Math.round(run.durationMs)}ms ${verdict}`);
  }
  lines.push("  Branches:");
  for (const [key, branch] of branches) {
    const steps = key === "" ? [] : key.split("\u0000");
    lines.push(`    · ${branch}: ${steps.length === 0 ? "(no tool calls)" : steps.map((step, i) => `step-${i}:${step}`).join(" → ")}`);
  }
  return noWorkflowCommands(lines.join("\n"));
}
