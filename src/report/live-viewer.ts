import { message } from "../exits/errors.js";
import { printOut } from "../exits/out.js";
import { type ReportData, type ReportedCase, type ReportTest, reportData, reportTest } from "./report-data.js";
import { type RerunAnswer, type RerunRequest, startViewerServer, type ViewerServer } from "./live-server.js";
import { RunningTrials, type TrialsSoFar, trialsProgressOf } from "./live-trials.js";
import { openPage } from "./show.js";
import { withSinceLast } from "./since-last.js";
import { viewerHtml } from "./viewer-html.js";
import { type RerunCase, type RerunPlan, type RerunVitest, rerunThroughVitest } from "./vitest-rerun.js";

/** The most calls (the test's now and before) whose change since the last run a live result carries. */
const LIVE_DIFF_CALLS = 2_000;

function callCount(test: ReportTest | undefined): number {
  let count = 0;
  for (const session of test?.meta?.sessions ?? [])
    for (const turn of session.turns) count += turn.toolCalls.length + turn.modelCalls.length + turn.httpCalls.length;
  return count;
}

/** The Vitest instance as the live viewer reads it. */
export interface LiveVitest extends RerunVitest {
  onClose?(fn: () => unknown): void;
}

/** A test case as the live viewer reads it: what the report keeps, and what a rerun needs. */
export type LiveCase = ReportedCase & RerunCase;

/** A test as the served page shows it: the report's, marked while Vitest runs it, with its trials finished so far. */
type LiveTest = ReportTest & { readonly running?: true; readonly trialsSoFar?: readonly TrialsSoFar[] };

/**
 * The watch session's live viewer: the report served on 127.0.0.1 (see `startViewerServer`), each test
 * marked running when Vitest starts it and replaced by its result when Vitest reports it, the whole report
 * at each run's end; the page's reruns go through Vitest's own API. Stops when Vitest closes.
 */
export class LiveViewer {
  private tests: LiveTest[];
  private history: ReportData["history"];
  private readonly cases = new Map<string, LiveCase>();
  private readonly trials = new RunningTrials();
  private running = false;
  /** A rerun from the page is under way, until Vitest's call returns (after its run's end). */
  private rerunning = false;
  private batch: LiveTest[] = [];
  /** The tests a rerun from the page asked for, until its run ends: Vitest reports the rest of their files as skipped. */
  focus: ReadonlySet<string> | undefined;

  private constructor(
    private readonly vitest: LiveVitest,
    initial: ReportData | undefined,
    private server?: ViewerServer,
  ) {
    this.tests = [...(initial?.tests ?? [])];
    this.history = initial?.history;
  }

  /** Serves the viewer for `vitest`'s watch session, starting from the report the folder held; prints its URL once. */
  static async start(vitest: LiveVitest, initial: ReportData | undefined, open: boolean): Promise<LiveViewer> {
    const live = new LiveViewer(vitest, initial);
    live.server = await startViewerServer({
      page: (token) => viewerHtml(live.snapshot(), { token }),
      snapshot: () => live.snapshot(),
      rerun: (request) => live.rerun(request),
    });
    vitest.onClose?.(() => live.close());
    printOut("console", message(`live viewer: ${live.url} (updates as tests run; rerun a test from the page)`), "stdout");
    if (open) openPage(live.url);
    return live;
  }

  get url(): string {
    return this.server?.url ?? "";
  }

  /** Vitest's run started. */
  runStarted(): void {
    this.running = true;
  }

  /** Vitest started `testCase`: its row is marked running (a new test is added). */
  started(testCase: LiveCase): void {
    this.cases.set(testCase.id, testCase);
    this.trials.clear(testCase.id);
    if (this.focus !== undefined && !this.focus.has(testCase.id)) return;
    const known: LiveTest = this.tests.find((test) => test.id === testCase.id) ?? reportTest(testCase);
    const { trialsSoFar: _before, ...rest } = known;
    this.upsert({ ...rest, running: true });
  }

  /**
   * A running test recorded an artifact: when it is a trial that finished (`trials()` sends one in a watch
   * session, see `sendTrialsToLiveViewer`), the test's row shows its trials so far.
   */
  artifact(testCase: LiveCase, artifact: unknown): void {
    const progress = trialsProgressOf(artifact);
    const row = this.tests.find((test) => test.id === testCase.id);
    if (progress === undefined || row?.running !== true) return;
    this.upsert({ ...row, trialsSoFar: this.trials.add(testCase.id, progress) });
  }

  /**
   * Vitest reported `testCase`'s result: it replaces the row, with what changed since `previous` (for a test of
   * more than {@link LIVE_DIFF_CALLS} calls, at the run's end: its trajectory's diff takes seconds).
   */
  finished(testCase: LiveCase, previous: ReportData | undefined): void {
    this.cases.set(testCase.id, testCase);
    this.trials.clear(testCase.id);
    if (this.focus !== undefined && !this.focus.has(testCase.id)) return;
    const test = reportTest(testCase);
    const before = previous?.tests.find((old) => old.file === test.file && old.fullName === test.fullName);
    this.upsert(callCount(test) + callCount(before) > LIVE_DIFF_CALLS ? test : (withSinceLast([test], previous)[0] ?? test));
  }

  /** The run ended: the page gets the whole report. */
  runEnded(data: ReportData): void {
    this.running = false;
    this.focus = undefined;
    // The whole report replaces what is queued.
    this.batch = [];
    this.tests = [...data.tests];
    this.history = data.history;
    this.server?.push("report", data);
  }

  close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    return server?.close() ?? Promise.resolve();
  }

  private flush(): void {
    const batch = this.batch;
    this.batch = [];
    if (batch.length > 0) this.server?.push("tests", batch);
  }

  private snapshot(): ReportData {
    return reportData(this.tests, this.history);
  }

  private upsert(test: LiveTest): void {
    const at = this.tests.findIndex((known) => known.id === test.id);
    if (at >= 0) this.tests[at] = test;
    else {
      // After the last test of its file, or at the end.
      let last = this.tests.length;
      for (const [index, known] of this.tests.entries()) if (known.file === test.file) last = index + 1;
      this.tests.splice(last, 0, test);
    }
    // The tests reported in one turn of the event loop go out as one event: one JSON for the page to read.
    if (this.batch.length === 0) setImmediate(() => this.flush());
    this.batch.push(test);
  }

  private rerun(request: RerunRequest): RerunAnswer {
    if (this.running || this.rerunning) return { ok: false, status: 409, message: "a run is under way: rerun when it ends" };
    const plan = this.plan(request);
    if (plan.cases.length === 0 && plan.files.length === 0)
      return {
        ok: false,
        status: request.what === "failed" ? 409 : 404,
        message: request.what === "failed" ? "no test failed" : "no such test in this session",
      };
    this.rerunning = true;
    this.focus = plan.files.length === 0 ? new Set(plan.cases.map((testCase) => testCase.id)) : undefined;
    const answer = rerunThroughVitest(this.vitest, plan, () => {
      this.rerunning = false;
    });
    if (!answer.ok) {
      this.rerunning = false;
      this.focus = undefined;
    }
    return answer;
  }

  private plan(request: RerunRequest): RerunPlan {
    const fileOf = (id: string) => {
      const testCase = this.cases.get(id);
      if (testCase !== undefined) return { moduleId: testCase.module.moduleId, project: testCase.module.project?.name };
      // A file's errors outside its tests: its id is its module's, with `#file`.
      return id.endsWith("#file") ? { moduleId: id.slice(0, -"#file".length), project: undefined } : undefined;
    };
    if (request.what === "file") {
      const file = fileOf(request.id ?? "");
      return { cases: [], files: file === undefined ? [] : [file] };
    }
    const ids = request.what === "test" ? [request.id ?? ""] : this.tests.filter((test) => test.state === "failed").map((test) => test.id);
    const cases = ids.flatMap((id) => this.cases.get(id) ?? []);
    if (cases.length === ids.length) return { cases, files: [] };
    // A file that failed outside its tests reruns whole, and so, with it, the other files asked.
    return { cases: [], files: ids.flatMap((id) => fileOf(id) ?? []) };
  }
}
