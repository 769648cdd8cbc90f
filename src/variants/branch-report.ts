import { noWorkflowCommands, oneLine } from "../exits/excerpt.js";
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
 * evalview's per-variant report, as its simulator prints it: the mocks applied, each variant with its own
 * branch (`#2 branch=b2`), and each branch's steps, one line per variant even when two took the same path.
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
  const lines = [`▶ ${name}  (seed=${runs[0]?.seed ?? 1}, ${noun}=${runs.length})`];
  if (applied.size > 0) {
    lines.push("  Mocks applied:");
    for (const [what, count] of applied) lines.push(`    · ${what} ×${count}`);
  }
  lines.push(`  ${noun[0]?.toUpperCase()}${noun.slice(1)}:`);
  for (const run of runs) {
    const tokens = run.tokens !== undefined ? ` ${run.tokens} tokens` : "";
    const verdict = run.passed ? "✓" : `✗ ${oneLine(run.reason ?? "")}`.trimEnd();
    lines.push(`    · #${run.index} branch=b${run.index}${tokens} ${Math.round(run.durationMs)}ms ${verdict}`);
  }
  lines.push("  Branches:");
  for (const run of runs) {
    const steps = run.path.length === 0 ? "(no tool calls)" : run.path.map((step, i) => `step-${i}:${step}`).join(" → ");
    lines.push(`    · b${run.index}: ${steps}`);
  }
  return noWorkflowCommands(lines.join("\n"));
}
