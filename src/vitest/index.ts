/// <reference path="./augment.d.ts" preserve="true" />
/** @module tooltrace/vitest */
export { tooltrace, type TooltraceVitePlugin } from "./plugin.js";
export type { TooltracePluginOptions, PluginLlmOptions } from "./options.js";
export type { YamlEvalsOptions } from "../evals/yaml-module.js";
export type { WatchedVitest, WatchTrigger, WatchedTask } from "./cassette-watch.js";
export type { TooltraceTaskMeta } from "../lifecycle/test-report.js";
