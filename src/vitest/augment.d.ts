import type { TooltraceMatchers } from "../../matchers/types.js";
import type { TooltraceTaskMeta } from "../lifecycle/test-report.js";
import type { TooltracePluginOptions } from "./options.js";

// The matchers on Vitest's `expect`. Referenced by every entry (`/// <reference path>`), so any file that
// imports tooltrace gets them. A declaration file, so `skipLibCheck` (tsc's default setup) covers the one
// line no single form can satisfy: Vitest 3.2 and 4 declare `Matchers<T = any>`, Vitest 5 `Matchers<R, T>`,
// and an augmentation must repeat the parameters exactly. The matchers are typed on both all the same.
// Only `Matchers` is augmented: since Vitest 3.2 it types `expect().*` and `expect.*` alike, and a second,
// different augmentation of `AsymmetricMatchersContaining` breaks `ExpectStatic` (TS2320) without skipLibCheck.
declare module "vitest" {
  // biome-ignore lint/suspicious/noExplicitAny: the augmentation repeats Vitest's own declaration, `Matchers<T = any>`.
  interface Matchers<T = any> extends TooltraceMatchers<void> {}
  interface ProvidedContext {
    tooltrace: TooltracePluginOptions;
    /** Provided by `tooltrace/reporter` while a watch session serves its live viewer: each trial is sent as it finishes. */
    tooltraceLiveViewer: boolean;
  }
}

// `task.meta`'s type lives in @vitest/runner up to Vitest 4 and in vitest itself from Vitest 5.
declare module "@vitest/runner" {
  interface TaskMeta {
    /** The turns of the test's sessions, for reporters. */
    tooltrace?: TooltraceTaskMeta;
  }
}

declare module "vitest" {
  interface TaskMeta {
    /** The turns of the test's sessions, for reporters. */
    tooltrace?: TooltraceTaskMeta;
  }
}
