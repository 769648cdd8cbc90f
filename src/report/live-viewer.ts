import { globalSingleton } from "../base/global-state.js";
import { message } from "../exits/errors.js";
import { printOut } from "../exits/out.js";
import type { TooltraceTaskMeta } from "../lifecycle/test-report.js";
import { type ReportData, type ReportedCase, type ReportTest, reportData, reportTest, reportTestWith } from "./report-data.js";
import { firstCalls, jsonWithMeta, redactInSlices, traceCalls } from "./live-trace.js";
import { type RerunAnswer, type RerunRequest, startViewerServer, type ViewerServer } from "./live-server.js";
import { RunningTrials, type TrialsSoFar, trialsProgressOf } from "./live-trials.js";
import { openPage } from "./show.js";
import { withSinceLast } from "./since-last.js";
import { viewerHtml } from "./viewer-html.js";
import { type RerunCase, type RerunPlan, type RerunVitest, rerunThroughVitest } from "./vitest-rerun.js";

/** The most calls (the test's now and before) whose change since the last run a live result carries. */
const LIVE_DIFF_CALLS = 2_000;
/**
 * A test of more calls goes to the page in two steps: at once, its result with its first {@link LIVE_FIRST_CALLS}
 * calls; then its whole trace, redacted {@link LIVE_SLICE_CALLS} calls per turn of the event loop.
 */
const LIVE_WHOLE_CALLS = 500;
const LIVE_FIRST_CALLS = 100;
const LIVE_SLICE_CALLS = 500;

/** The Vitest instance as the live viewer reads it. */
export interface LiveVitest extends RerunVitest {
  onClose?(fn: () => unknown): void;
  /** Called before Vitest restarts (its config edited): it closes, and a new session starts in the same process. */
  onServerRestart?(fn: () => unknown): void;
}

/**
 * A watch session's server on its way to the session Vitest restarts into: its viewer takes it (the same URL, the
 * open pages kept live); when none does within a minute (the new config serves no viewer), it closes.
 */
const handover = globalSingleton("liveViewerHandover", () => ({
  server: undefined as ViewerServer | undefined,
  timer: undefined as ReturnType<typeof setTimeout> | undefined,
}));

/** A test case as the live viewer reads it: what the report keeps, and what a rerun needs. */
export type LiveCase = ReportedCase & RerunCase;

/**
 * A test as the served page shows it: the report's, marked while Vitest runs it, with its trials finished so far;
 * `partial` while only its first calls are there (its whole trace follows as a `whole` event).
 */
type LiveTest = ReportTest & {
  readonly running?: true;
  readonly trialsSoFar?: readonly TrialsSoFar[];
  readonly partial?: { readonly shown: number; readonly calls: number };
};

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
  /** The tests changed since the last event, by id: whether the page needs the whole test, or only its running mark. */
  private batch = new Map<string, boolean>();
  private readonly byId = new Map<string, LiveTest>();
  /** Large tests' traces being redacted, by test id: how to cancel each. */
  private readonly traces = new Map<string, () => void>();
  /** The tests a rerun from the page asked for, until its run ends: Vitest reports the rest of their files as skipped. */
  focus: ReadonlySet<string> | undefined;

  private constructor(
    private readonly vitest: LiveVitest,
    initial: ReportData | undefined,
    private server?: ViewerServer,
  ) {
    this.tests = [...(initial?.tests ?? [])];
    for (const test of this.tests) this.byId.set(test.id, test);
    this.history = initial?.history;
  }

  /**
   * Serves the viewer for `vitest`'s watch session, starting from the report the folder held, and prints its URL;
   * after Vitest restarted, on the server of the session before (its open pages get this session's report).
   */
  static async start(vitest: LiveVitest, initial: ReportData | undefined, open: boolean): Promise<LiveViewer> {
    const live = new LiveViewer(vitest, initial);
    const options = {
      page: (token: string) => viewerHtml(live.snapshot(), { token }),
      snapshot: () => live.snapshot(),
      rerun: (request: RerunRequest) => live.rerun(request),
    };
    const kept = handover.server;
    handover.server = undefined;
    clearTimeout(handover.timer);
    kept?.serve(options);
    kept?.push("report", live.snapshot());
    live.server = kept ?? (await startViewerServer(options));
    vitest.onClose?.(() => live.close());
    vitest.onServerRestart?.(() => live.handOver());
    printOut("console", message(`live viewer: ${live.url} (updates as tests run; rerun a test from the page)`), "stdout");
    if (open && kept === undefined) openPage(live.url);
    return live;
  }

  /** Vitest restarts: the server waits for the next session's viewer, instead of closing with this one. */
  private handOver(): void {
    const server = this.server;
    if (server === undefined) return;
    this.stopTraces();
    this.server = undefined;
    void handover.server?.close();
    handover.server = server;
    clearTimeout(handover.timer);
    handover.timer = setTimeout(() => {
      if (handover.server !== server) return;
      handover.server = undefined;
      void server.close();
    }, 60_000).unref();
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
    this.stopTraces(testCase.id);
    const known = this.byId.get(testCase.id);
    const { trialsSoFar: _before, ...rest }: LiveTest = known ?? reportTest(testCase);
    // The page has a test it knows already: it gets the mark alone, not the test's last trace again.
    this.upsert({ ...rest, running: true }, known === undefined);
  }

  /**
   * A running test recorded an artifact: when it is a trial that finished (`trials()` sends one in a watch
   * session, see `sendTrialsToLiveViewer`), the test's row shows its trials so far (sent with its running mark).
   */
  artifact(testCase: LiveCase, artifact: unknown): void {
    const progress = trialsProgressOf(artifact);
    const row = this.byId.get(testCase.id);
    if (progress === undefined || row?.running !== true) return;
    this.upsert({ ...row, trialsSoFar: this.trials.add(testCase.id, progress) }, false);
  }

  /**
   * Vitest reported `testCase`'s result: it replaces the row, with what changed since `previous` (for a test of
   * more than {@link LIVE_DIFF_CALLS} calls, at the run's end: its trajectory's diff takes seconds). A test of
   * more than {@link LIVE_WHOLE_CALLS} calls is sent with its first calls, and whole when its trace is redacted.
   */
  finished(testCase: LiveCase, previous: ReportData | undefined): void {
    this.cases.set(testCase.id, testCase);
    this.trials.clear(testCase.id);
    if (this.focus !== undefined && !this.focus.has(testCase.id)) return;
    this.stopTraces(testCase.id);
    const meta = testCase.meta().tooltrace as TooltraceTaskMeta | undefined;
    const calls = traceCalls(meta);
    if (meta === undefined || calls <= LIVE_WHOLE_CALLS) {
      this.upsert(withChange(reportTest(testCase), previous));
      return;
    }
    const base = reportTestWith(testCase, undefined);
    const first = firstCalls(meta, LIVE_FIRST_CALLS);
    const partial: LiveTest = { ...base, meta: first, partial: { shown: traceCalls(first), calls } };
    this.upsert(partial);
    const cancel = redactInSlices(meta, LIVE_SLICE_CALLS, (redacted, json) => {
      this.traces.delete(testCase.id);
      const at = this.tests.indexOf(partial);
      if (at < 0) return;
      const whole = withChange({ ...base, meta: redacted }, previous);
      this.tests[at] = whole;
      this.byId.set(whole.id, whole);
      // After the partial test, if it is still queued.
      this.flush();
      this.server?.pushJson("whole", jsonWithMeta(whole, json));
    });
    this.traces.set(testCase.id, cancel);
  }

  /** The run ended: the page gets the whole report. */
  runEnded(data: ReportData): void {
    this.running = false;
    this.focus = undefined;
    // The whole report replaces what is queued, and the traces being redacted.
    this.batch.clear();
    this.stopTraces();
    this.tests = [...data.tests];
    this.byId.clear();
    for (const test of this.tests) this.byId.set(test.id, test);
    this.history = data.history;
    this.server?.push("report", data);
  }

  close(): Promise<void> {
    this.stopTraces();
    const server = this.server;
    this.server = undefined;
    return server?.close() ?? Promise.resolve();
  }

  /** Cancels the redaction of `id`'s trace, or of every trace. */
  private stopTraces(id?: string): void {
    for (const [test, cancel] of this.traces) if (id === undefined || test === id) cancel();
    if (id === undefined) this.traces.clear();
    else this.traces.delete(id);
  }

  /** Sends the page what changed since the last event: each test whole, or its running mark alone. */
  flush(): void {
    if (this.batch.size === 0) return;
    type Mark = { readonly id: string; readonly mark: "running"; readonly trialsSoFar?: readonly TrialsSoFar[] };
    const items = [...this.batch].flatMap(([id, whole]): (LiveTest | Mark)[] => {
      const test = this.byId.get(id);
      if (test === undefined) return [];
      return whole ? [test] : [{ id, mark: "running", ...(test.trialsSoFar ? { trialsSoFar: test.trialsSoFar } : {}) }];
    });
    this.batch.clear();
    this.server?.push("tests", items);
  }

  private snapshot(): ReportData {
    return reportData(this.tests, this.history);
  }

  /** Puts `test` in the list, and queues it for the page (`whole`: the test, else its running mark alone). */
  private upsert(test: LiveTest, whole = true): void {
    const known = this.byId.get(test.id);
    this.byId.set(test.id, test);
    const at = known === undefined ? -1 : this.tests.indexOf(known);
    if (at >= 0) this.tests[at] = test;
    else {
      // After the last test of its file, or at the end.
      let last = this.tests.length;
      for (const [index, known] of this.tests.entries()) if (known.file === test.file) last = index + 1;
      this.tests.splice(last, 0, test);
    }
    // The tests reported in one turn of the event loop go out as one event: one JSON for the page to read.
    if (this.batch.size === 0) setImmediate(() => this.flush());
    this.batch.set(test.id, whole || this.batch.get(test.id) === true);
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

/** `test` with what changed since `previous`, unless it or its previous run holds more than {@link LIVE_DIFF_CALLS} calls. */
function withChange(test: ReportTest, previous: ReportData | undefined): ReportTest {
  const before = previous?.tests.find((old) => old.file === test.file && old.fullName === test.fullName);
  if (traceCalls(test.meta) + traceCalls(before?.meta) > LIVE_DIFF_CALLS) return test;
  return withSinceLast([test], previous)[0] ?? test;
}
