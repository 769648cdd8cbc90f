import { join, relative, resolve } from "node:path";
import type { LimiterKeyStats } from "../base/limiter-host.js";
import { TooltraceError } from "../exits/errors.js";
import { writeOut } from "../exits/out.js";
import { writeGithubSummary } from "./github-summary.js";
import { writeJunitFile } from "./junit-file.js";
import { readReport } from "./read-report.js";
import { type ReportData, type ReportTest, reportData } from "./report-data.js";
import { reportLine } from "./report-line.js";
import { viewerHtml } from "./viewer-html.js";

/** Options of `tooltrace merge`: where the merged report goes, and the other files it may write. */
export interface MergeCommandOptions {
  /** The merged report's folder. Default `tooltrace-report` in the working folder. */
  readonly outputDir?: string;
  /** Also write the merged run as JSON (`ReportData`, as `tooltrace/json-reporter` writes it) to this file. */
  readonly json?: string;
  /** Also write a JUnit XML file, each failing eval's conversation as its `system-out`, to this file. */
  readonly junit?: string;
}

/** What `tooltrace merge` wrote: the merged report, its page, and the line that says so. */
export interface MergeResult {
  readonly data: ReportData;
  readonly page: string;
  readonly line: string;
}

/**
 * One run's report from the reports of its shards (Jest's `--shard`, or any runs of disjoint test files):
 * every test of each, their costs and waits summed, the limiters' counts added. A test in two of them is refused:
 * the shards ran the same file.
 */
export function mergeReports(reports: readonly { readonly target: string; readonly data: ReportData }[]): ReportData {
  const seen = new Map<string, string>();
  const tests: ReportTest[] = [];
  for (const { target, data } of reports)
    for (const test of data.tests) {
      const before = seen.get(test.id);
      if (before !== undefined)
        throw new TooltraceError(
          `merge: ${JSON.stringify(test.fullName)} (${test.file}) is in both ${before} and ${target}.`,
          "give each shard's report once; the shards of one run hold disjoint test files (Jest's --shard=i/n, each i once).",
        );
      seen.set(test.id, target);
      tests.push(test);
    }
  // A file's tests together, in their order, whichever shard ran it.
  const ordered = tests.map((test, index) => ({ test, index })).sort((a, b) => a.test.file.localeCompare(b.test.file) || a.index - b.index);
  return reportData(
    ordered.map(({ test }) => test),
    undefined,
    addLimits(reports.map(({ data }) => data.providerLimits)),
  );
}

/** The shards' limiters' counts by `provider/model`: requests and waits added, the peak the highest of theirs. */
function addLimits(all: readonly (Readonly<Record<string, LimiterKeyStats>> | undefined)[]): Map<string, LimiterKeyStats> {
  const merged = new Map<string, LimiterKeyStats>();
  for (const limits of all)
    for (const [key, counted] of Object.entries(limits ?? {})) {
      const before = merged.get(key);
      merged.set(
        key,
        before === undefined
          ? { ...counted }
          : {
              ...before,
              ...(counted.maxInFlight !== undefined ? { maxInFlight: Math.max(before.maxInFlight ?? 0, counted.maxInFlight) } : {}),
              peak: Math.max(before.peak, counted.peak),
              granted: before.granted + counted.granted,
              queued: before.queued + counted.queued,
              queuedMs: before.queuedMs + counted.queuedMs,
              rateLimited: before.rateLimited + counted.rateLimited,
              rateLimitedMs: before.rateLimitedMs + counted.rateLimitedMs,
            },
      );
    }
  return merged;
}

/**
 * `tooltrace merge <report>... [--out=<folder>] [--json[=file]] [--junit[=file]]`: the shards' reports (each a
 * report folder, its `index.html` or the JSON reporter's file) as one report: the viewer's page, and the JSON and
 * JUnit files when asked; on GitHub Actions the job summary.
 */
export function mergeCommand(targets: readonly string[], options: MergeCommandOptions = {}): MergeResult {
  if (targets.length === 0)
    throw new TooltraceError(
      "merge: no report to merge.",
      "give each shard's report folder: tooltrace merge shard-1/tooltrace-report shard-2/tooltrace-report.",
    );
  const data = mergeReports(targets.map((target) => ({ target, data: readReport(target) })));
  const outputDir = resolve(options.outputDir ?? "tooltrace-report");
  const page = join(outputDir, "index.html");
  writeOut("viewer page", page, viewerHtml(data));
  if (options.json !== undefined) writeOut("json report", resolve(options.json), JSON.stringify(data, null, 2));
  if (options.junit !== undefined) writeJunitFile(resolve(options.junit), [...data.tests]);
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (process.env.GITHUB_ACTIONS === "true" && summary) writeGithubSummary(summary, data.tests);
  const folder = relative(process.cwd(), outputDir) || ".";
  return { data, page, line: reportLine(data, page, `open it with: npx tooltrace show ${folder}`) };
}
