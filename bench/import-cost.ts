import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { withSpread } from "./stats.js";

/** The entry points a user imports, by the name they import. */
const ENTRIES = [
  "tooltrace",
  "tooltrace/vitest",
  "tooltrace/matchers",
  "tooltrace/ai-sdk",
  "tooltrace/msw",
  "tooltrace/wire",
  "tooltrace/cli",
];
const SAMPLES = 9;

/**
 * One fresh process per sample: how long `await import(entry)` takes, and how many of the package's own
 * modules (files under its root, outside node_modules) it parsed, seen by the inspector.
 */
const CHILD = `
import { Session } from "node:inspector";
const root = process.argv[1];
const session = new Session();
session.connect();
const urls = new Set();
session.on("Debugger.scriptParsed", ({ params }) => urls.add(params.url));
session.post("Debugger.enable");
const started = performance.now();
await import(process.argv[2]);
const ms = performance.now() - started;
const own = [...urls].filter((url) => url.startsWith("file://" + root + "/") && !url.includes("/node_modules/") && !url.includes("[eval"));
console.log(JSON.stringify({ ms, modules: own.length }));
`;

/** Import cost of each entry of the package at `root` (default: this checkout's build). */
export function importCost(root = join(import.meta.dirname, "..", "..")): { entry: string; modules: number; times: number[] }[] {
  return ENTRIES.map((entry) => {
    const samples = Array.from(
      { length: SAMPLES },
      () =>
        JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", CHILD, root, entry], { cwd: root, encoding: "utf8" })) as {
          ms: number;
          modules: number;
        },
    );
    const times = samples.map((sample) => sample.ms);
    return { entry, modules: samples[0]?.modules ?? 0, times };
  });
}

export function reportImportCost(rows: ReturnType<typeof importCost>): string {
  return [
    "import cost of each entry (a fresh process per sample, median (IQR) of 9):",
    ...rows.map(
      (row) =>
        `  ${row.entry.padEnd(20)} ${String(row.modules).padStart(3)} of tooltrace's modules, ${withSpread(row.times, (ms) => `${ms.toFixed(1)} ms`)}`,
    ),
  ].join("\n");
}

if (process.argv[1] === import.meta.filename && process.argv[2] !== undefined) console.log(reportImportCost(importCost(process.argv[2])));
