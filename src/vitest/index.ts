/// <reference path="./augment.d.ts" preserve="true" />
export { tooltrace, type TooltraceVitePlugin } from "./plugin.js";
export type { TooltracePluginOptions } from "./options.js";
export type { TooltraceTaskMeta } from "../lifecycle/test-report.js";
