import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { TooltraceError } from "../base/errors.js";
import { TRACE_FORMAT_VERSION } from "../trace/turn-json.js";
import { type ReportData, reportData } from "./report-data.js";
import { viewerHtml } from "./viewer-html.js";

/**
 * `tooltrace show <report folder | report.json | turn JSON>`: the viewer's page for it (a report's own, or
 * one made in a temporary folder), opened in the default browser unless `open` is false. Returns its path.
 */
export function show(target: string, open = true): string {
  const path = resolve(target);
  if (!existsSync(path))
    throw new TooltraceError(`${target} does not exist.`, "give a report folder (tooltrace-report), its report.json, or a turn's JSON.");
  const page = statSync(path).isDirectory() ? join(path, "index.html") : pageFor(path);
  if (!existsSync(page))
    throw new TooltraceError(`${target} holds no index.html.`, "give the folder the tooltrace reporter wrote (tooltrace-report).");
  if (open && process.env.CI === undefined) {
    const opener = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
    spawn(opener, [page], { detached: true, stdio: "ignore" })
      .on("error", () => undefined)
      .unref();
  }
  return page;
}

/** A page for a JSON file: a whole report, or one turn (`turnToJson`, a test's `meta.tooltrace` turn). */
function pageFor(file: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new TooltraceError(`${file} is not JSON (${(error as Error).message}).`);
  }
  const data = asReport(parsed, file);
  const folder = mkdtempSync(join(tmpdir(), "tooltrace-show-"));
  const page = join(folder, "index.html");
  writeFileSync(page, viewerHtml(data));
  return page;
}

function asReport(value: unknown, file: string): ReportData {
  const record = (value ?? {}) as Record<string, unknown>;
  if (Array.isArray(record.tests)) return value as ReportData;
  if (Array.isArray(record.toolCalls) && typeof record.userMessage === "string") {
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
  throw new TooltraceError(
    `${file} is neither a tooltrace report nor a turn's JSON.`,
    "give report.json from the tooltrace reporter, or a turn written with turnToJson().",
  );
}
