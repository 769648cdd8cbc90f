import { relative } from "node:path";
import { message } from "../exits/errors.js";
import { plural } from "../exits/excerpt.js";
import { costText } from "../trace/cost.js";
import { providerWaitText } from "../trace/provider-waits.js";
import { type ReportData, reportCounts } from "./report-data.js";

/** The line a report ends its run with: where its page is, its counts, what it cost and waited, then `tail`. */
export function reportLine(data: ReportData, page: string, tail: string): string {
  const counts = reportCounts(data.tests);
  const files = counts.fileErrors === 0 ? "" : `, ${plural(counts.fileErrors, "file")} with errors outside their tests`;
  const cost = data.cost === undefined ? "" : `, cost ${costText(data.cost)}`;
  const waits = data.providerWaits === undefined ? "" : `; ${providerWaitText(data.providerWaits)}`;
  const where = relative(process.cwd(), page) || page;
  return message(`report: ${where} (${plural(counts.tests, "test")}, ${counts.failed} failed${files}${cost}${waits}); ${tail}`);
}
