/**
 * tooltrace: test AI agents the way you test any other code. Stub tools with portable JSON rules, run the
 * real agent, and assert on the typed call trace.
 */
export { createSession, MAX_CALLS_PER_SESSION } from "./session/create-session.js";
export type { Agent, AgentContext, AgentReply, SendOptions, Session, SessionOptions, UnusedRulesPolicy } from "./session/types.js";
export type { SessionReport } from "./session/scope.js";
export type { ToolsInput } from "./intercept/bind-tools.js";
export { createRuleSet, RuleSet, STUB_LIMITS, type StubSelection, type RuleSetOptions } from "./stubs/index.js";
export type { ToolStub, ToolStubOutcome, ToolStubThrow, ToolStubMatch, MatchSchema, MatchScalar, MatchJsonType } from "./stubs/index.js";
export type { ToolCall, ToolCallStatus, ToolCallSource, Turn, TurnStatus, Usage, ModelCall, ModelMessageView, TraceError, TurnsHolder } from "./trace/types.js";
export { formatToolCall, formatToolCalls } from "./trace/format.js";
export type { ToolCallContext, ToolCallStep } from "./middleware/tool-call.js";
export { StubConfigError, TooltraceError } from "./errors.js";
export { mockModel, createResponder, type MockModelV2Options, type Responder } from "./model/index.js";
export type { MockModelInput, MockModelOptions, MockModelReply, MockModelRequest, MockModelResponder, MockModelResponse, MockModelMessage, MockModelTool, MockModelToolCall, MockModelToolResult, MockModelUsage } from "./model/types.js";
