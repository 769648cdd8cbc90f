import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { formatMs, median, ratioWithSpread, withSpread } from "../stats.js";
import { generateHeapSuite, generateSuite } from "./generate.js";

/**
 * `npm run bench:suite`: the generated suite of 1,000 evals on tooltrace against the same evals on
 * `MockLanguageModelV3` with plain `expect`, each run by `vitest run` in its own process, alternating
 * (ABBA) so drift hits both alike. Reports the median wall time of each and the ratio.
 */
const root = join(import.meta.dirname, "..", "..", "suite");
const rounds = Number(process.env.SUITE_ROUNDS ?? 3);
generateSuite(root);
generateHeapSuite(root);

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

function run(variant: "tooltrace" | "baseline"): number {
  const started = process.hrtime.bigint();
  const output = execFileSync(
    process.execPath,
    [join("node_modules", "vitest", "vitest.mjs"), "run", "--config", join(root, variant, "vitest.config.ts")],
    { env: { ...process.env, CI: "1" }, encoding: "utf8" },
  );
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!/Tests\s+\S*1000 passed/.test(output.replace(/\x1b\[[0-9;]*m/g, "")))
    throw new Error(`the ${variant} suite did not pass 1000 tests:\n${output.slice(-2000)}`);
  return ms;
}

const samples: Record<"tooltrace" | "baseline", number[]> = { tooltrace: [], baseline: [] };
run("tooltrace");
run("baseline");
for (let round = 0; round < rounds; round++) {
  const order =
    round % 2 === 0
      ? (["tooltrace", "baseline", "baseline", "tooltrace"] as const)
      : (["baseline", "tooltrace", "tooltrace", "baseline"] as const);
  for (const variant of order) samples[variant].push(run(variant));
}
console.log(`node ${process.version}; ${samples.tooltrace.length} runs of each suite, alternating`);
console.log(`1,000 evals on tooltrace (sessions, stubs, mockModel, matchers): median ${withSpread(samples.tooltrace, formatMs)}`);
console.log(`the same on MockLanguageModelV3 and plain expect (baseline):    median ${withSpread(samples.baseline, formatMs)}`);
console.log(`ratio: ${ratioWithSpread(samples.tooltrace, samples.baseline)}`);
const heaps = {
  tooltrace: [heapGrowth("tooltrace"), heapGrowth("tooltrace"), heapGrowth("tooltrace")],
  baseline: [heapGrowth("baseline"), heapGrowth("baseline"), heapGrowth("baseline")],
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
console.log(
  `heap growth over one file of 1,000 evals: tooltrace median ${mb(median(heaps.tooltrace))} [${heaps.tooltrace.map(mb).join(", ")}], the bare AI SDK suite ${mb(median(heaps.baseline))} [${heaps.baseline.map(mb).join(", ")}]: ${(median(heaps.tooltrace) / median(heaps.baseline)).toFixed(1)}x`,
);
