import { FaultPlans } from "../faults/fault-plan.js";
import type { FiredFault } from "../faults/types.js";
import { BoundedCache } from "../base/bounded-cache.js";
import { StubConfigError } from "../exits/errors.js";
import { compileMatch } from "./compile-match.js";
import { firstMatcher, type FirstMatch } from "./match-codegen.js";
import type { MatchProgram } from "./match-program.js";
import { plainCopyOf } from "./limits.js";
import { explainMiss } from "./explain-miss.js";
import { suggestName } from "./suggest.js";
import type { ToolStubOutcome } from "./types.js";
import { validateRule, type NormalizedRule } from "./validate-rule.js";

/** Which rule answered a call, and with which entry of its sequence. */
export interface StubSelection {
  readonly ruleId: string;
  /** Zero-based position in the rule's `outcomes` (0 for `outcome`). */
  readonly outcomeIndex: number;
  readonly outcome: ToolStubOutcome;
  /** A fault of the rule's that fired on this call: instead of the outcome, or (`slow`) before it. */
  readonly fault?: FiredFault;
}

interface CompiledRule extends NormalizedRule {
  readonly program: MatchProgram;
}

/** Options for {@link createRuleSet}. */
export interface RuleSetOptions {
  /**
   * The qualified names of the tools the session has (`list_tasks`, `researcher/list_tasks`).
   * A rule naming another tool is refused. Omit when the tools are not known (an agent in another process).
   */
  readonly knownTools?: ReadonlySet<string>;
  /** Known tools no stub may answer, each with what to do instead (an OpenAI Agents SDK handoff). */
  readonly notStubbable?: ReadonlyMap<string, string>;
  /** The session's seed, for the rules' faults drawn by probability. */
  readonly seed?: number;
}

/**
 * The validated, compiled rules of one session and each rule's sequence position.
 * Rules are tried top to bottom; the first whose tool and match fit wins, and only it advances.
 */
export class RuleSet {
  private readonly byTool = new Map<string, { readonly rules: CompiledRule[]; firstMatch: FirstMatch | undefined }>();
  private readonly positions = new Map<string, number>();
  private readonly faults: FaultPlans;
  readonly ruleIds: readonly string[];

  /** @internal Built by {@link createRuleSet}, which validates and compiles the rules. */
  constructor(
    rules: readonly CompiledRule[],
    /** The session's seed, for faults drawn by probability. */
    seed = 0,
  ) {
    this.faults = new FaultPlans(seed);
    for (const rule of rules) {
      const entry = this.byTool.get(rule.qualifiedTool);
      if (entry) entry.rules.push(rule);
      else this.byTool.set(rule.qualifiedTool, { rules: [rule], firstMatch: undefined });
    }
    for (const entry of this.byTool.values()) {
      entry.firstMatch = firstMatcher(
        JSON.stringify(entry.rules.map((rule) => rule.match ?? null)),
        entry.rules.map((rule) => rule.program),
      );
    }
    this.ruleIds = rules.map((rule) => rule.id);
  }

  /** True when some rule names this tool (so a stub may answer it). */
  hasRulesFor(qualifiedTool: string): boolean {
    return this.byTool.has(qualifiedTool);
  }

  /** Selects the first matching rule for a call and advances its sequence. `undefined`: no rule matched. */
  select(qualifiedTool: string, input: unknown): StubSelection | undefined {
    const entry = this.byTool.get(qualifiedTool);
    if (entry === undefined) return undefined;
    const rule = entry.rules[(entry.firstMatch as FirstMatch)(input)];
    if (rule === undefined) return undefined;
    const fault = this.faults.next(rule.id, rule.faults, `stub rule "${rule.id}" faults`);
    // A fault answers instead of the outcome, which keeps its place for the retry (a slow one delays it).
    if (fault !== undefined && fault.fault.fault !== "slow") {
      if (!this.positions.has(rule.id)) this.positions.set(rule.id, 0);
      return { ruleId: rule.id, outcomeIndex: -1, outcome: rule.outcomes[0] as ToolStubOutcome, fault };
    }
    const position = this.positions.get(rule.id) ?? 0;
    const outcomeIndex = Math.min(position, rule.outcomes.length - 1);
    this.positions.set(rule.id, position + 1);
    return { ruleId: rule.id, outcomeIndex, outcome: rule.outcomes[outcomeIndex] as ToolStubOutcome, ...(fault ? { fault } : {}) };
  }

  /** Why no rule of this tool matched `input` (the closest rule and its first failed constraint), if it has rules. */
  explainMiss(qualifiedTool: string, input: unknown): string | undefined {
    const entry = this.byTool.get(qualifiedTool);
    return entry === undefined ? undefined : explainMiss(entry.rules, input);
  }

  /** How many calls each rule has answered. */
  usage(): ReadonlyMap<string, number> {
    return new Map(this.ruleIds.map((id) => [id, this.positions.get(id) ?? 0]));
  }

  /** Each rule's id with the tool it names (qualified by its path). */
  ruleTools(): [string, string][] {
    return [...this.byTool].flatMap(([tool, entry]) => entry.rules.map((rule): [string, string] => [rule.id, tool]));
  }

  /** The ids of rules that never answered a call, in declaration order. */
  unusedRuleIds(): string[] {
    return this.ruleIds.filter((id) => !this.positions.has(id));
  }
}

/**
 * Validates and compiles a session's stubs. Throws a {@link StubConfigError} naming the rule, the JSON
 * pointer and the fix at the first problem, before any call runs.
 */
export function createRuleSet(stubs: unknown, options: RuleSetOptions = {}): RuleSet {
  if (stubs === undefined) return new RuleSet([]);
  if (!Array.isArray(stubs)) {
    throw new StubConfigError({ pointer: "" }, "`stubs` must be an array of rules.");
  }
  // One plain copy, read once with the limits checked: everything below works on plain JSON.
  const plain = plainCopyOf(stubs, "stub rule");
  const key = plain.json ? JSON.stringify(plain.items) : undefined;
  const cacheable = key !== undefined && key.length <= CACHED_KEY_LENGTH;
  const known = cacheable ? validated.get(key) : undefined;
  if (known) {
    for (const rule of known) checkToolName(rule, options.knownTools, options.notStubbable);
    return new RuleSet(known, options.seed);
  }
  const compiled = compileRules(plain.items, options);
  if (cacheable && known === null) {
    // Shared by every session with these rules: a selection's outcome cannot be changed under another session.
    for (const rule of compiled) deepFreeze(rule.outcomes);
    validated.set(key, compiled);
  } else if (cacheable) validated.set(key, null);
  return new RuleSet(compiled, options.seed);
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
}

/**
 * Rule lists already validated and compiled, by the JSON of their plain copy: tests that share fixtures pay
 * for them about once per worker. Only the tool names are checked again, against each session's tools. A list
 * is kept from its second session on (`null`: seen once), so lists that differ in every test cost no copies.
 */
const validated = new BoundedCache<string, readonly CompiledRule[] | null>(200);
/** Longer lists are compiled each time rather than kept (a megabyte of fixtures, 200 times over). */
const CACHED_KEY_LENGTH = 16 * 1024;

function compileRules(plain: readonly unknown[], options: RuleSetOptions): CompiledRule[] {
  const seen = new Map<string, number>();
  return plain.map((raw, index): CompiledRule => {
    const rule = validateRule(raw, index);
    const first = seen.get(rule.id);
    if (first !== undefined) {
      throw new StubConfigError(
        { ruleId: rule.id, ruleIndex: index, pointer: "/id" },
        `duplicate rule id (also used by rule #${first}).`,
        "give every rule a session-unique id.",
      );
    }
    seen.set(rule.id, index);
    checkToolName(rule, options.knownTools, options.notStubbable);
    try {
      return { ...rule, program: compileMatch(rule.match) };
    } catch (error) {
      throw new StubConfigError(
        { ruleId: rule.id, ruleIndex: index, pointer: "/match" },
        `the constraint does not compile: ${(error as Error).message}`,
      );
    }
  });
}

function checkToolName(
  rule: NormalizedRule,
  knownTools: ReadonlySet<string> | undefined,
  notStubbable: ReadonlyMap<string, string> | undefined,
): void {
  const refused = notStubbable?.get(rule.qualifiedTool);
  if (refused !== undefined)
    throw new StubConfigError(
      { ruleId: rule.id, ruleIndex: rule.index, pointer: "/tool" },
      `"${rule.qualifiedTool}" cannot be stubbed.`,
      refused,
    );
  if (knownTools === undefined || knownTools.has(rule.qualifiedTool)) return;
  const near = suggestName(rule.qualifiedTool, knownTools);
  const path = rule.qualifiedTool.includes("/") ? rule.qualifiedTool.slice(0, rule.qualifiedTool.lastIndexOf("/")) : undefined;
  const listed = [...knownTools].sort().join(", ") || "(none)";
  throw new StubConfigError(
    { ruleId: rule.id, ruleIndex: rule.index, pointer: "/tool" },
    `the session has no tool "${rule.qualifiedTool}"${path ? ` (no subagent path "${path}" with that tool)` : ""}.`,
    near !== undefined ? `did you mean "${near}"? Tools: ${listed}.` : `use one of: ${listed}.`,
  );
}
