import { relative, sep } from "node:path";
import type { TooltraceTaskMeta } from "../lifecycle/test-report.js";
import type { JestHandoff } from "./jest-handoff.js";
import type { JestWatchConfig } from "./jest-watched-file.js";
import type { ReportedCase, ReportedModule } from "./report-data.js";

/** The part of Jest's `Test` (a test file scheduled in a project) the reporter reads. */
export interface JestTest {
  readonly path: string;
  readonly context?: { readonly config?: JestWatchConfig & { readonly displayName?: { readonly name?: string } } };
}

/** The part of Jest's `AssertionResult` (one test's result) the reporter reads. */
export interface JestAssertionResult {
  readonly ancestorTitles: readonly string[];
  readonly title: string;
  readonly fullName: string;
  readonly status: string;
  readonly failureMessages: readonly string[];
  readonly duration?: number | null;
}

/** The part of Jest's `TestResult` (one test file's results) the reporter reads. */
export interface JestTestResult {
  readonly testFilePath: string;
  readonly testResults: readonly JestAssertionResult[];
  /** The file failed to run: it did not load, or a hook outside its tests threw. */
  readonly testExecError?: { readonly message?: string; readonly stack?: string } | null;
}

/** Jest's states as the report's (Vitest's) name them. */
function stateOf(status: string): string {
  if (status === "pending" || status === "disabled") return "skipped";
  return status;
}

/**
 * Each test's handed-off sessions, by its index in the file's results: matched by Jest's `fullName`, in
 * order (a concurrent test's by its title); when a name finished more often than it has results (`jest.retryTimes`), its last runs are the ones reported.
 */
function sessionsByIndex(results: readonly JestAssertionResult[], handoffs: readonly JestHandoff[]): Map<number, TooltraceTaskMeta> {
  const byName = new Map<string, TooltraceTaskMeta[]>();
  for (const handoff of handoffs) byName.set(handoff.fullName, [...(byName.get(handoff.fullName) ?? []), handoff.meta]);
  const indexes = new Map<string, number[]>();
  for (const [index, result] of results.entries()) indexes.set(result.fullName, [...(indexes.get(result.fullName) ?? []), index]);
  const found = new Map<number, TooltraceTaskMeta>();
  for (const [name, at] of indexes) {
    const metas = (byName.get(name) ?? []).slice(-at.length);
    // Fewer handed off than results: the tests that ran no session are not known by name, so the last ones get them.
    const offset = at.length - metas.length;
    for (const [i, meta] of metas.entries()) found.set(at[i + offset] as number, meta);
  }
  // A concurrent test's sessions are handed off under its title alone (Jest names no running concurrent test).
  for (const [index, result] of results.entries()) {
    if (found.has(index) || indexes.has(result.title)) continue;
    const meta = byName.get(result.title)?.shift();
    if (meta !== undefined) found.set(index, meta);
  }
  return found;
}

/**
 * One Jest test file's results, with its tests' sessions from the workers, in the shape the Vitest reporters
 * read (`ReportedModule`): the viewer, the JSON file, the job summary and the OpenTelemetry export take it as
 * they take Vitest's. A test's name is its describe blocks and title joined by ` > `, as Vitest names it.
 */
export function jestModule(test: JestTest, result: JestTestResult, handoffs: readonly JestHandoff[]): ReportedModule {
  const root = test.context?.config?.rootDir ?? process.cwd();
  const name = test.context?.config?.displayName?.name;
  const project = { ...(name !== undefined ? { name } : {}), config: { root } };
  const file = relative(root, result.testFilePath).split(sep).join("/") || result.testFilePath;
  const sessions = sessionsByIndex(result.testResults, handoffs);
  const module = { moduleId: result.testFilePath, project };
  const cases: ReportedCase[] = result.testResults.map((assertion, index) => ({
    id: `${name === undefined ? "" : `${name}:`}${file}#${index}`,
    fullName: [...assertion.ancestorTitles, assertion.title].join(" > "),
    module,
    meta: () => {
      const meta = sessions.get(index);
      return meta === undefined ? {} : { tooltrace: meta };
    },
    result: () => ({
      state: stateOf(assertion.status),
      errors: assertion.failureMessages.map((message) => ({ message })),
    }),
    diagnostic: () => (typeof assertion.duration === "number" ? { duration: assertion.duration } : undefined),
  }));
  const error = result.testExecError;
  return {
    ...module,
    children: { allTests: () => cases },
    errors: () =>
      error ? [{ ...(error.message !== undefined ? { message: error.message } : {}), ...(error.stack ? { stack: error.stack } : {}) }] : [],
  };
}
