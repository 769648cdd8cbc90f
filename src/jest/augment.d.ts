import type { TooltraceMatchers } from "../../matchers/types.js";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R> extends TooltraceMatchers<R> {}
  }
}
