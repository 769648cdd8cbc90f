import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { TooltraceError } from "../exits/errors.js";
import { TRACE_FORMAT_VERSION } from "../trace/turn-json.js";
import type { TooltraceTaskMeta } from "../lifecycle/test-report.js";
import { type ReportData, type ReportTest, reportData } from "./report-data.js";
import { checkReport } from "./report-schema.js";

const DATA_OPEN = '<script type="application/json" id="tooltrace-data">';
const WHAT =
  "give a report folder (tooltrace-report), its index.html, the JSON reporter's tooltrace-turns.json, or Vitest's --reporter=json output";

/**
 * A run's report, read from what tooltrace wrote: a report folder, its `index.html` (the data is in the page),
 * a `report.json`, the JSON reporter's `tooltrace-turns.json`, or one turn's JSON; or from Vitest's own JSON
 * reporter (each test's `meta` holds its sessions). Vitest's blob files are refused with the command that turns
 * them into a report.
 */
export function readReport(target: string): ReportData {
  const path = resolve(target);
  if (!existsSync(path)) throw new TooltraceError(`${target} does not exist.`, `${WHAT}.`);
  if (statSync(path).isDirectory()) {
    if (existsSync(join(path, "index.html"))) return fromPage(join(path, "index.html"));
    if (existsSync(join(path, "report.json"))) return fromJson(join(path, "report.json"));
    if (basename(path) === ".vitest-reports" || existsSync(join(path, "blob.json"))) throw blobRefusal(target);
    throw new TooltraceError(`${target} holds no tooltrace report (no index.html).`, `${WHAT}.`);
  }
  if (path.endsWith(".html")) return fromPage(path);
  if (/blob[^/]*\.json$/.test(basename(path))) throw blobRefusal(target);
  return fromJson(path);
}

function blobRefusal(target: string): TooltraceError {
  return new TooltraceError(
    `${target} is Vitest's blob output, which only Vitest can read.`,
    `merge it into a report first: npx vitest --merge-reports=${target} --reporter=tooltrace/reporter, then give tooltrace-report.`,
  );
}

function fromPage(file: string): ReportData {
  const html = readFileSync(file, "utf8");
  const start = html.indexOf(DATA_OPEN);
  const end = start === -1 ? -1 : html.indexOf("</script>", start);
  if (end === -1) throw new TooltraceError(`${file} is not a page the tooltrace reporter wrote.`, `${WHAT}.`);
  return parse(html.slice(start + DATA_OPEN.length, end), file);
}

function fromJson(file: string): ReportData {
  return parse(readFileSync(file, "utf8"), file);
}

function parse(text: string, file: string): ReportData {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TooltraceError(`${file} is not JSON (${(error as Error).message}).`, `${WHAT}.`);
  }
  const record = (value ?? {}) as Record<string, unknown>;
  if (Array.isArray(record.tests)) {
    checkReport(value, file);
    return value as ReportData;
  }
  if (Array.isArray(record.testResults)) return fromVitestJson(record.testResults as VitestFileResult[]);
  if (Array.isArray(record.toolCalls) && typeof record.userMessage === "string") return reportOfTurn(record, file);
  throw new TooltraceError(`${file} is neither a tooltrace report nor a turn's JSON.`, `${WHAT}, or a turn written with turnToJson().`);
}

function reportOfTurn(record: Record<string, unknown>, file: string): ReportData {
  const turn = { ...record, index: typeof record.index === "number" ? record.index : 0 };
  const meta = {
    version: TRACE_FORMAT_VERSION,
    sessions: [{ name: "turn", strict: false, turns: [turn], tools: {}, unusedRuleIds: [], violations: [] }],
  };
  return reportData([
    {
      id: "turn",
      file,
      fullName: String(record.userMessage),
      state: record.status === "failed" ? "failed" : "passed",
      errors: [],
      meta: meta as never,
    },
  ]);
}

/** A file of Vitest's JSON reporter, as far as a report reads it. */
interface VitestFileResult {
  readonly name: string;
  readonly message?: string;
  readonly assertionResults: readonly {
    readonly fullName: string;
    readonly status: string;
    readonly duration?: number | null;
    readonly failureMessages?: readonly string[];
    readonly meta?: { readonly tooltrace?: TooltraceTaskMeta };
  }[];
}

function fromVitestJson(files: readonly VitestFileResult[]): ReportData {
  const tests: ReportTest[] = files.flatMap((result) => {
    const inside = relative(process.cwd(), result.name);
    const file = inside.startsWith("..") ? result.name : inside;
    return result.assertionResults.map((test) => ({
      id: `${file}#${test.fullName}`,
      file: file.split(sep).join("/"),
      fullName: test.fullName,
      state: test.status === "passed" ? "passed" : test.status === "failed" ? "failed" : "skipped",
      ...(typeof test.duration === "number" ? { durationMs: test.duration } : {}),
      errors: [...(test.failureMessages ?? [])],
      ...(test.meta?.tooltrace ? { meta: test.meta.tooltrace } : {}),
    }));
  });
  return reportData(tests);
}
