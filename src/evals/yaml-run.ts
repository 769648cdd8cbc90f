import { message } from "../exits/errors.js";
import { toolNamesIn } from "../catchers/bind-tools.js";
import { createSession } from "../session/create-session.js";
import type { ToolStub } from "../stubs/types.js";
import { branchReport } from "../variants/branch-report.js";
import { trials, type TrialsReport } from "../variants/trials.js";
import type { LocatedYamlCase } from "./yaml-located.js";
import { RESPONSE_MOCKS, yamlSessionParts } from "./yaml-mocks.js";
import { misnamedTool } from "./yaml-tools.js";
import { printOut } from "../exits/out.js";
import type { EvalAgentFactory } from "./eval-agent.js";
import { scoreCase } from "./score-case.js";

/** How many variants, from which seed. */
export interface YamlRunOptions {
  readonly variants: number;
  readonly seed: number;
}

/** What one case's run found, with evalview's branch report. */
export interface YamlCaseResult {
  readonly ok: boolean;
  readonly report: string;
  readonly trials: TrialsReport;
  /** The first failed variant's first miss, and the JSON pointer (inside the case) of the expectation it missed. */
  readonly firstMiss?: { readonly text: string; readonly pointer: string };
}

/**
 * Runs one case: `variants` trials from `seed`, each a fresh session with the case's mocks, the user message
 * (then `input.turns`), and the case's expectations scored from 0 to 100 against `thresholds.min_score`
 * (default 100). The case passes when the share of passing variants reaches `thresholds.min_pass_rate`
 * (default 1). A tool the case names that the agent lacks, a typo of one it has, throws before the agent runs.
 */
export async function runYamlCase(located: LocatedYamlCase, factory: EvalAgentFactory, options: YamlRunOptions): Promise<YamlCaseResult> {
  const { evalCase, file } = located;
  const parts = yamlSessionParts(file, evalCase);
  const unused = new Set<string>();
  const minScore = evalCase.thresholds?.min_score ?? 100;
  const minPassRate = evalCase.thresholds?.min_pass_rate ?? 1;
  let refusal: Error | undefined;
  let firstMiss: YamlCaseResult["firstMiss"];
  // The lowest variant's miss: with `concurrency` above 1 the variants finish in any order.
  let firstMissIndex = Number.POSITIVE_INFINITY;
  const report = await trials(
    options.variants,
    { seed: options.seed, name: evalCase.name, print: false, minPassRate, failTest: false },
    async ({ seed, index }) => {
      if (refusal) throw refusal;
      const setup = await factory({
        seed,
        caseName: evalCase.name,
        ...(evalCase.adapter ? { adapter: evalCase.adapter } : {}),
        ...(evalCase.input.context !== undefined ? { context: evalCase.input.context } : {}),
      });
      const misnamed = misnamedTool(evalCase, new Set(toolNamesIn(setup.tools)));
      if (misnamed) {
        refusal = located.fault(misnamed.pointer, misnamed.problem, misnamed.fix);
        throw refusal;
      }
      const session = createSession({
        ...setup,
        seed,
        stubs: [...mocksForTools(parts.stubs, setup.tools, (line) => unused.add(line)), ...(setup.stubs ?? [])],
        http: parts.http,
        steps: parts.steps,
        middleware: [...parts.middleware, ...(setup.middleware ?? [])],
        ...(parts.strict ? { strict: true } : {}),
        ...(evalCase.faults !== undefined ? { faults: evalCase.faults } : {}),
      });
      const turns = [await session.send(evalCase.input.query)];
      for (const next of evalCase.input.turns ?? []) turns.push(await session.send(next));
      const { score, missed, missedAt } = scoreCase(evalCase, turns);
      if (score < minScore) {
        if (index < firstMissIndex) {
          firstMissIndex = index;
          firstMiss = { text: `${missed[0]} (score ${score} < ${minScore})`, pointer: missedAt[0] ?? "/name" };
        }
        throw new Error(`score ${score} < ${minScore}: ${missed.join("; ")}`);
      }
    },
  );
  if (refusal) throw refusal;
  for (const line of unused) printOut("console", message(`YAML eval "${evalCase.name}": ${line}`));
  const { ok } = report;
  // A variant that failed otherwise (the agent threw, a strict session's violation) is placed at the case's name.
  const reason = report.runs.find((run) => !run.passed)?.reason?.split("\n")[0];
  if (firstMiss === undefined && reason !== undefined) firstMiss = { text: reason, pointer: "/name" };
  const text = `${branchReport(evalCase.name, report.runs, mocksApplied(report))}\n  Pass rate: ${report.passed}/${report.count}${minPassRate < 1 ? ` (min ${minPassRate})` : ""}`;
  return { ok, report: text, trials: report, ...(firstMiss ? { firstMiss } : {}) };
}

/** How often each mock answered across the variants: `tool:search_flights ×3`, `response_mocks ×2`, `http:api.x ×1`. */
function mocksApplied(report: TrialsReport): Map<string, number> {
  const applied = new Map<string, number>();
  const add = (key: string) => applied.set(key, (applied.get(key) ?? 0) + 1);
  for (const run of report.runs)
    for (const turn of run.turns) {
      for (const call of turn.toolCalls)
        if (call.answeredBy?.kind === "stub" && call.answeredBy.ruleId.startsWith("tool_mocks/")) add(`tool:${call.qualifiedName}`);
      for (const call of turn.modelCalls)
        if (call.answeredBy?.kind === "middleware" && call.answeredBy.name === RESPONSE_MOCKS) add("response_mocks");
      for (const call of turn.httpCalls ?? [])
        if (call.answeredBy?.kind === "stub" && call.answeredBy.ruleId.startsWith("http_mocks/"))
          add(`http:${call.method} ${new URL(call.url).host}`);
    }
  return applied;
}

/**
 * The tool mocks for tools the agent has: as in evalview, which matches calls against mocks and never mocks
 * against the agent's tools, a mock for a tool the agent lacks is only unused (said once, as a warning).
 */
function mocksForTools(stubs: readonly ToolStub[], tools: unknown, unused: (line: string) => void): ToolStub[] {
  const names = new Set(toolNamesIn(tools));
  if (names.size === 0) return [...stubs];
  return stubs.filter((stub) => {
    if (!stub.id.startsWith("tool_mocks/") || names.has(stub.tool)) return true;
    unused(`${stub.id} mocks ${stub.tool}, which the agent does not have: it is never used.`);
    return false;
  });
}
