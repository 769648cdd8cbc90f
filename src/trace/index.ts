export type * from "./types.js";
export { ToolCallRecord, TurnRecord } from "./records.js";
export { formatToolCall, formatToolCalls, formatSource, compactJson } from "./format.js";
export { addUsage, ZERO_USAGE } from "./usage.js";
export { toTraceError } from "./to-trace-error.js";
