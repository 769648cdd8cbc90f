import type { TooltraceMatchers } from "../../matchers/types.js";
import type { TooltraceTaskMeta } from "../session/test-report.js";
import type { TooltracePluginOptions } from "./options.js";

declare module "vitest" {
  // Vitest declares `Matchers<T = any>`; an augmentation must repeat its parameters exactly.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  interface Matchers<T = any> extends TooltraceMatchers<void> {}
  interface AsymmetricMatchersContaining extends TooltraceMatchers<unknown> {}
  interface ProvidedContext {
    tooltrace: TooltracePluginOptions;
  }
}

declare module "@vitest/runner" {
  interface TaskMeta {
    /** The turns of the test's sessions, for reporters. */
    tooltrace?: TooltraceTaskMeta;
  }
}

export {};
