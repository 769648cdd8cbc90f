import type { RerunAnswer } from "./live-server.js";

/** A test case as the rerun reads it (structural: Vitest's types are not a dependency). */
export interface RerunCase {
  readonly id: string;
  readonly name: string;
  readonly type?: string;
  readonly parent?: { readonly type?: string; readonly name?: string; readonly parent?: unknown };
  readonly module: RerunModule;
  /** Vitest 4 and later: a specification that runs this test alone. */
  toTestSpecification?(): unknown;
}

/** A test module as the rerun reads it. */
export interface RerunModule {
  readonly moduleId: string;
  readonly project?: { readonly name?: string };
  /** Vitest 4 and later: a specification that runs these of its tests. */
  toTestSpecification?(cases?: readonly RerunCase[]): unknown;
}

/** The part of the Vitest instance a rerun uses: what exists in Vitest 3.2, 4 and 5. */
export interface RerunVitest {
  getModuleSpecifications?(moduleId: string): readonly { readonly project?: { readonly name?: string } }[];
  rerunTestSpecifications?(specifications: unknown[], allTestsRun?: boolean): Promise<unknown>;
  runTestSpecifications?(specifications: unknown[], allTestsRun?: boolean): Promise<unknown>;
  setGlobalTestNamePattern?(pattern: RegExp): void;
  resetGlobalTestNamePattern?(): void;
}

/** What a rerun runs: the test cases asked (the rest of their files is left as it was), or whole files. */
export interface RerunPlan {
  readonly cases: readonly RerunCase[];
  /** Files to run whole, by module id and project name. */
  readonly files: readonly { readonly moduleId: string; readonly project: string | undefined }[];
}

/**
 * Reruns `plan` through Vitest's own API, as its watch mode does (`rerunTestSpecifications`, which reports to
 * every reporter): on Vitest 4 and later each test by its id; on 3.2, whose specifications take no ids, the
 * tests' files under a name pattern for the tests asked (by `runTestSpecifications`: 3.2's rerun resets the
 * pattern), reset when the run ends. Returns once it started;
 * `ended` is called when the run ends (or failed to start).
 */
export function rerunThroughVitest(vitest: RerunVitest, plan: RerunPlan, ended: () => void): RerunAnswer {
  const rerun = vitest.rerunTestSpecifications?.bind(vitest);
  if (rerun === undefined || vitest.getModuleSpecifications === undefined)
    return {
      ok: false,
      status: 501,
      message: "this Vitest cannot rerun from the page (it has no rerunTestSpecifications): Vitest 3.2 or later can",
    };
  const specifications: unknown[] = [];
  let pattern: RegExp | undefined;
  const byModule = new Map<RerunModule, RerunCase[]>();
  for (const testCase of plan.cases) byModule.set(testCase.module, [...(byModule.get(testCase.module) ?? []), testCase]);
  const files = [...plan.files];
  for (const [module, cases] of byModule) {
    if (module.toTestSpecification !== undefined) specifications.push(module.toTestSpecification(cases));
    else files.push({ moduleId: module.moduleId, project: module.project?.name });
  }
  const named = [...byModule].filter(([module]) => module.toTestSpecification === undefined).flatMap(([, cases]) => cases);
  if (named.length > 0 && plan.files.length === 0 && vitest.setGlobalTestNamePattern !== undefined)
    pattern = new RegExp(named.map((testCase) => `(?:^| )${escapeRegExp(taskName(testCase))}$`).join("|"));
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(`${file.project}\0${file.moduleId}`)) continue;
    seen.add(`${file.project}\0${file.moduleId}`);
    specifications.push(
      ...vitest.getModuleSpecifications(file.moduleId).filter((spec) => file.project === undefined || spec.project?.name === file.project),
    );
  }
  if (specifications.length === 0) return { ok: false, status: 404, message: "Vitest knows no test file for this test any more" };
  const run = pattern !== undefined ? vitest.runTestSpecifications?.bind(vitest) : undefined;
  if (run !== undefined && pattern !== undefined) vitest.setGlobalTestNamePattern?.(pattern);
  void (run ?? rerun)(specifications)
    .catch(() => undefined)
    .finally(() => {
      if (run !== undefined) vitest.resetGlobalTestNamePattern?.();
      ended();
    });
  return { ok: true };
}

/** The name Vitest 3.2's runner matches a name pattern against: the suites' names and the test's, space-separated. */
function taskName(testCase: RerunCase): string {
  const names = [testCase.name];
  let parent = testCase.parent;
  while (parent !== undefined && parent.type === "suite") {
    names.unshift(parent.name ?? "");
    parent = parent.parent as RerunCase["parent"];
  }
  return names.join(" ");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
