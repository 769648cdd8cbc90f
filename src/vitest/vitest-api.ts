/** The part of the `vitest` module the setup file uses, given to it (so its code can be built as CommonJS). */
export interface VitestApi {
  readonly expect: { extend(matchers: object): void; getState(): object };
  inject(key: "tooltrace" | "tooltraceLiveViewer"): unknown;
  afterAll(fn: () => unknown): void;
  afterEach(fn: (context: { task: object }) => unknown): void;
  beforeEach(fn: (context: { task: object }) => unknown): void;
  onTestFinished(fn: (context: { task: object }) => unknown): void;
  /** Vitest 4.1 and later. */
  readonly aroundEach?: (fn: (runTest: () => Promise<void>, context: { task: object }) => Promise<void>) => void;
  /** Imports a module through Vitest's module runner (TypeScript, the config's aliases), as a test file would. */
  readonly vi: { importActual(path: string): Promise<unknown> };
  /** Vitest 4.0.11 and later: records an artifact of the test, for the reporters in Vitest's process. */
  readonly recordArtifact?: (test: object, artifact: { readonly type: string }) => Promise<unknown>;
  /** Vitest 4 and later: the running test. */
  readonly TestRunner?: { getCurrentTest?(): object | undefined };
}
