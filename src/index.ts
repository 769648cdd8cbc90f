/// <reference path="./vitest/augment.d.ts" preserve="true" />
/**
 * tooltrace: test AI agents the way you test any other code. Stub tools with portable JSON rules, run the
 * real agent, and assert on the typed call trace.
 *
 * @module tooltrace
 */
import { installEdgeGuards } from "./edges/edge-guards.js";

// The guards at the process's edges go in when tooltrace is imported, in plain Node too (a script, `tsx`): a
// function a module takes later (`Worker`, `spawn`) meets them, not only what runs after the first strict session.
installEdgeGuards();

export { createSession, MAX_CALLS_PER_SESSION } from "./session/create-session.js";
export type {
  Agent,
  AgentContext,
  AgentReply,
  RecordedCalls,
  SendOptions,
  Session,
  SessionOptions,
  ServedMcp,
  UnusedRulesPolicy,
} from "./session/types.js";
export type { SessionReport } from "./lifecycle/scope.js";
export type { ToolsInput } from "./catchers/bind-tools.js";
export { inSubagent } from "./catchers/subagent.js";
export { mcpTools, type McpToolEntry, type McpToolsOptions, type McpClientLike } from "./agents/mcp.js";
export { mcpServer, type McpServerOptions, type McpServerHandle } from "./agents/mcp-server.js";
export type { McpToolDefinition, McpServeFile } from "./agents/mcp-definitions.js";
export type { McpResourceDefinition, McpPromptDefinition, McpPromptArgument } from "./agents/mcp-extras.js";
export { mockModel, type MockModelV2Options, type MockModelV4Options } from "./catchers/ai-sdk-model.js";
export { createRuleSet, RuleSet, STUB_LIMITS, type StubSelection, type RuleSetOptions } from "./stubs/index.js";
export type { ToolStubBase } from "./stubs/types.js";
export type { ToolStub, ToolStubOutcome, ToolStubThrow, ToolStubMatch, MatchSchema, MatchScalar, MatchJsonType } from "./stubs/index.js";
export type {
  AnswerSource,
  HttpCall,
  HttpExchange,
  Interaction,
  InteractionBase,
  InteractionKind,
  InteractionStatus,
  ModelCall,
  ModelMessageView,
  ModelToolCall,
  ProviderWait,
  ToolCall,
  ToolCallSource,
  ToolCallStatus,
  TraceChange,
  TraceError,
  Turn,
  JudgeRecord,
  TurnsHolder,
  TurnStatus,
  Usage,
} from "./trace/types.js";
export { TRACE_FORMAT_VERSION, turnToJson, turnsToJson, type TurnJson } from "./trace/turn-json.js";
export type { OfferedToolJson } from "./trace/request-json.js";
export { MODEL_PRICES, PRICES_TAKEN, type ModelPrice } from "./trace/prices.js";
export { usePrices, type CostTotal, type Prices } from "./trace/cost.js";
export type { ProviderWaitTotal } from "./trace/provider-waits.js";
export type { ProviderLimit, ProviderLimits } from "./base/provider-limits.js";
export { useProviderLimits } from "./session/provider-limits-check.js";
export { toJsonValue } from "./base/json-value.js";
export {
  traceSnapshot,
  traceSnapshotText,
  type TraceSnapshot,
  type TraceSnapshotOptions,
  type SnapshotTurn,
  type SnapshotCall,
} from "./trace/trace-snapshot.js";
export { diffTraceSnapshots } from "./trace/trace-snapshot-diff.js";
export { jsonDifferences, describeDifference, type JsonDifference } from "./trace/json-diff.js";
export { formatToolCall, formatToolCalls, formatHttpCall } from "./trace/format.js";
export type { Step, StepContext, Terminal, TerminalProgress } from "./pipeline/types.js";
export { StubConfigError, TooltraceError, type ConfigErrorLocation } from "./exits/errors.js";
export type { RedactOptions } from "./secrets/redactor.js";
export type { ResolvedReply } from "./model/types.js";
export { createResponder, type Responder } from "./model/index.js";
export type {
  MockModelInput,
  MockModelOptions,
  MockModelReply,
  MockModelRequest,
  MockModelResponder,
  MockModelResponse,
  MockModelMessage,
  MockModelTool,
  MockModelToolCall,
  MockModelToolResult,
  MockModelUsage,
  ReasoningPart,
} from "./model/types.js";
export type {
  Middleware,
  MiddlewareContext,
  ToolCallMiddlewareArgs,
  BeforeEvalArgs,
  AfterEvalArgs,
  MaybePromise,
} from "./middleware/types.js";
export { useMiddleware } from "./middleware/shared-middleware.js";
export { MiddlewareAbort } from "./middleware/turn-middleware.js";
export { scrubber, type ScrubberOptions, type ScrubberResult } from "./middleware/scrubber.js";
export { grader, type GraderOptions, type GraderResult } from "./middleware/grader.js";
export type { HttpMock, HttpMockOutcome, HttpMockResponse, HttpMockNetworkError } from "./http-mocks/types.js";
export type { Fault, FaultKind, FiredFault } from "./faults/types.js";
export { answerJudge, type AnswerJudgeOptions } from "./judges/answer-judge.js";
export { trajectoryJudge, type ExpectedCall, type TrajectoryJudgeOptions } from "./judges/trajectory-judge.js";
export { modelJudge, type ModelJudgeOptions } from "./judges/model-judge.js";
export type { Judge, JudgeOptions, JudgeResult, JudgeSubject } from "../matchers/lib/judge.js";
export { useHttpMocks } from "./http-mocks/shared-http-mocks.js";
export type {
  CassetteMode,
  CassetteOptions,
  CassetteFile,
  CassetteToolEntry,
  CassetteHttpEntry,
  CassetteHttpResponse,
  CassetteHttpFailure,
  CassetteModelEntry,
} from "./cassettes/types.js";
export type { ModelFingerprint } from "./cassettes/fingerprint.js";
export type { StalePolicy } from "./cassettes/stale.js";
export type { Upstream } from "./wire/upstream.js";
export { useStrict } from "./lifecycle/strict-default.js";
export { takeRefusals } from "./lifecycle/scope.js";
export { variants, type Variant, type VariantRun, type VariantsOptions, type VariantsReport } from "./variants/variants.js";
export { trials, type Trial, type TrialRun, type TrialsOptions, type TrialsReport } from "./variants/trials.js";
export type { ModelMatrixReport, ModelRow, ModelTrial } from "./variants/model-matrix.js";
export type { TrialsCassette } from "./variants/trial-cache.js";
export { passHatK, passAtK } from "./variants/pass-rates.js";
export {
  simulateUser,
  type SimulateUserOptions,
  type SimulatedUserView,
  type SimulatedPersona,
  type SimulatedConversation,
} from "./variants/simulate-user.js";
export { defineEvalAgent, type EvalAgentContext, type EvalAgentFactory, type EvalAgentSetup } from "./evals/eval-agent.js";
export { scoreCase } from "./evals/score-case.js";
export type { YamlEvalCase, YamlToolMock, YamlResponseMock, YamlHttpMock } from "./evals/yaml-case.js";
export type { TrialsJson } from "./lifecycle/test-report.js";
export type { DivergenceNode } from "./trace/divergence-tree.js";
export { seededRandom } from "./base/seeded-random.js";
export type { MockModelVariant } from "./model/types.js";
