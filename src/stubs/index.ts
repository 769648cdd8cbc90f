export type { ToolStub, ToolStubOutcome, ToolStubThrow, ToolStubMatch, MatchSchema, MatchScalar, MatchJsonType } from "./types.js";
export { createRuleSet, RuleSet, type StubSelection, type RuleSetOptions } from "./rule-set.js";
export { STUB_LIMITS } from "./limits.js";
