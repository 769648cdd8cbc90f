import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitedChildrenCpuMs } from "../child-cpu.js";
import { formatMs, median, ratioWithSpread, withSpread } from "../stats.js";
import { generateHeapSuite, generateSuite } from "./generate.js";
import { generateVitestEvalsSuite } from "./generate-vitest-evals.js";

/**
 * `npm run bench:suite`: the generated suite of 1,000 evals on tooltrace against the same evals on
 * `MockLanguageModelV3` with plain `expect`, each run by `vitest run` in its own process, alternating
 * (ABBA) so drift hits both alike. Reports the median wall time of each and the ratio; and the same tooltrace
 * suite with the trace viewer's reporter beside the default one, for what writing the report costs; and the same
 * evals written for vitest-evals 0.16.1 (bench/deps, installed by scripts/bench-deps.mjs), the peer users compare.
 */
const root = join(import.meta.dirname, "..", "..", "suite");
const rounds = Number(process.env.SUITE_ROUNDS ?? 3);
generateSuite(root);
generateHeapSuite(root);
generateVitestEvalsSuite(root);
// vitest-evals from bench/deps; its own peers (vitest, ai, zod) resolve to the root's, the runner's own.
mkdirSync(join(root, "node_modules"), { recursive: true });
symlinkSync(
  join(import.meta.dirname, "..", "..", "..", "bench", "deps", "node_modules", "vitest-evals"),
  join(root, "node_modules", "vitest-evals"),
);

/** Bytes the heap grew by over one file of 1,000 evals, in one worker. */
function heapGrowth(variant: "tooltrace" | "baseline"): number {
  const output = execFileSync(
    process.execPath,
    [
      join("node_modules", "vitest", "vitest.mjs"),
      "run",
      "--config",
      join(root, `heap-${variant}`, "vitest.config.ts"),
      "--pool=forks",
      "--maxWorkers=1",
    ],
    { env: { ...process.env, CI: "1" }, encoding: "utf8" },
  );
  const growth = /HEAP_GROWTH (-?\d+)/.exec(output)?.[1];
  if (growth === undefined) throw new Error(`the ${variant} heap run printed no growth:\n${output.slice(-2000)}`);
  return Number(growth);
}

type Variant = "tooltrace" | "baseline" | "report" | "vitest-evals";
/** Where the report variant writes `tooltrace-report/`. */
const reportFolder = mkdtempSync(join(tmpdir(), "tooltrace-suite-report-"));
process.once("exit", () => rmSync(reportFolder, { recursive: true, force: true }));

/** Each run's CPU time (its whole process tree), beside its wall time: steadier on a shared machine. */
const cpu: Record<Variant, number[]> = { tooltrace: [], baseline: [], report: [], "vitest-evals": [] };

function run(variant: Variant): number {
  const cpuBefore = waitedChildrenCpuMs();
  const started = process.hrtime.bigint();
  const suite = variant === "report" ? "tooltrace" : variant;
  const reporters = variant === "report" ? ["--reporter=default", "--reporter=tooltrace/reporter"] : [];
  const output = execFileSync(
    process.execPath,
    [join(process.cwd(), "node_modules", "vitest", "vitest.mjs"), "run", "--config", join(root, suite, "vitest.config.ts"), ...reporters],
    { env: { ...process.env, CI: "1" }, encoding: "utf8", cwd: variant === "report" ? reportFolder : process.cwd() },
  );
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!/Tests\s+\S*1000 passed/.test(output.replace(/\x1b\[[0-9;]*m/g, "")))
    throw new Error(`the ${variant} suite did not pass 1000 tests:\n${output.slice(-2000)}`);
  const cpuAfter = waitedChildrenCpuMs();
  if (cpuBefore !== undefined && cpuAfter !== undefined) cpu[variant].push(cpuAfter - cpuBefore);
  return ms;
}

const samples: Record<Variant, number[]> = { tooltrace: [], baseline: [], report: [], "vitest-evals": [] };
run("tooltrace");
run("baseline");
run("report");
run("vitest-evals");
for (const list of Object.values(cpu)) list.length = 0;
for (let round = 0; round < rounds; round++) {
  const order: readonly Variant[] =
    round % 2 === 0
      ? ["tooltrace", "vitest-evals", "report", "baseline", "baseline", "report", "vitest-evals", "tooltrace"]
      : ["baseline", "report", "vitest-evals", "tooltrace", "tooltrace", "vitest-evals", "report", "baseline"];
  for (const variant of order) samples[variant].push(run(variant));
}
console.log(`node ${process.version}; ${samples.tooltrace.length} runs of each suite, alternating`);
console.log(`1,000 evals on tooltrace (sessions, stubs, mockModel, matchers): median ${withSpread(samples.tooltrace, formatMs)}`);
console.log(`the same on MockLanguageModelV3 and plain expect (baseline):    median ${withSpread(samples.baseline, formatMs)}`);
console.log(`ratio: ${ratioWithSpread(samples.tooltrace, samples.baseline)} (aim: at most 1.1x)`);
console.log(
  `the same evals on vitest-evals 0.16.1 (describeEval, ToolCallJudge, its reporter): median ${withSpread(samples["vitest-evals"], formatMs)}`,
);
console.log(`tooltrace against vitest-evals: ${ratioWithSpread(samples.tooltrace, samples["vitest-evals"])} (aim: at most 0.9x)`);
console.log(`the tooltrace suite writing the trace viewer (tooltrace/reporter):  median ${withSpread(samples.report, formatMs)}`);
console.log(`report writing: ${ratioWithSpread(samples.report, samples.tooltrace)} of the suite without it (aim: at most 1.03x)`);
if (cpu.tooltrace.length > 0) {
  console.log("CPU time of each run's processes (main and workers), the same runs:");
  console.log(
    `  tooltrace ${withSpread(cpu.tooltrace, formatMs)}, baseline ${withSpread(cpu.baseline, formatMs)}: ${ratioWithSpread(cpu.tooltrace, cpu.baseline)}`,
  );
  console.log(
    `  vitest-evals ${withSpread(cpu["vitest-evals"], formatMs)}: tooltrace ${ratioWithSpread(cpu.tooltrace, cpu["vitest-evals"])} of it; the viewer's reporter ${ratioWithSpread(cpu.report, cpu.tooltrace)}`,
  );
}
const heaps = {
  tooltrace: [heapGrowth("tooltrace"), heapGrowth("tooltrace"), heapGrowth("tooltrace")],
  baseline: [heapGrowth("baseline"), heapGrowth("baseline"), heapGrowth("baseline")],
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
console.log(
  `heap growth over one file of 1,000 evals: tooltrace median ${mb(median(heaps.tooltrace))} [${heaps.tooltrace.map(mb).join(", ")}], the bare AI SDK suite ${mb(median(heaps.baseline))} [${heaps.baseline.map(mb).join(", ")}]: ${(median(heaps.tooltrace) / median(heaps.baseline)).toFixed(1)}x`,
);
