import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { outText, writeOut } from "../exits/out.js";
import { type Comparison, compareReports } from "./compare.js";
import { comparisonHtml } from "./compare-html.js";
import { comparisonMarkdown } from "./compare-markdown.js";
import { readReport } from "./read-report.js";
import { ownPage } from "./show.js";

/** Options of `tooltrace show --compare`. */
export interface CompareCommandOptions {
  /** Print markdown (for a pull-request comment) instead of writing a page. */
  readonly markdown?: boolean;
  /** Where to write the page. Default a new temporary folder. */
  readonly out?: string;
}

/** What `tooltrace show --compare` made: the page's path or the markdown, and whether anything regressed. */
export interface CompareResult {
  readonly output: string;
  readonly comparison: Comparison;
  /** A test broke, went missing, or its pass rate fell by more than chance. */
  readonly regressed: boolean;
}

/** `tooltrace show --compare <baseline> <current>`: the two runs compared, as a page or as markdown. */
export function compareCommand(baseline: string, current: string, options: CompareCommandOptions = {}): CompareResult {
  const comparison = compareReports(readReport(baseline), readReport(current));
  const regressed = comparison.tests.some(
    (test) => test.status === "broken" || test.status === "removed" || (test.passRate?.significant === true && test.passRate.change < 0),
  );
  if (options.markdown) return { output: outText("comparison markdown", comparisonMarkdown(comparison)), comparison, regressed };
  const page = resolve(options.out ?? join(mkdtempSync(join(tmpdir(), "tooltrace-compare-")), "index.html"));
  writeOut("comparison page", page, comparisonHtml(comparison, { baseline: ownPage(baseline), current: ownPage(current) }));
  return { output: page, comparison, regressed };
}
