import { usageError } from "../exits/errors.js";
import type { CassetteOptions } from "../cassettes/types.js";
import { TestScope } from "../lifecycle/scope.js";

/** `trials({ cassette })`: each trial's exchanges cached in a cassette of its own, keyed by its seed. */
export type TrialsCassette = true | Omit<CassetteOptions, "path">;

/**
 * The cassette options a trial's sessions get, checked: `auto` unless the option or the environment says else, and
 * `refresh` (a recording made for another request is recorded anew).
 */
export function trialCassette(option: TrialsCassette | undefined): CassetteOptions | undefined {
  if (option === undefined) return undefined;
  if (option !== true && (typeof option !== "object" || option === null || "path" in option))
    throw usageError(
      "trials(count, { cassette }): true, or cassette options without `path` (each trial has a file of its own, by its seed).",
      'write cassette: true, or cassette: { mode: "auto" }.',
    );
  return option === true ? { mode: "auto", refresh: true } : { mode: "auto", refresh: true, ...option };
}

/**
 * A trial's scope. Named by its position, not its seed, so a trial's default cassette stays the same when
 * TOOLTRACE_SEED moves; but a trial that caches its exchanges is named by its seed (the draws its recording holds)
 * and the trials' name.
 * In front, so a long test name cut short keeps it.
 */
export function trialScope(
  parent: TestScope | undefined,
  trial: { readonly index: number; readonly seed: number; readonly name: string | undefined },
  cassette: CassetteOptions | undefined,
): TestScope {
  const test = parent?.testName ?? "trials";
  // The trials' own name too (a model matrix names each model's): one model's recording is not another's.
  const name = cassette ? `seed ${trial.seed} ${trial.name ?? test}` : `trial ${trial.index + 1} ${test}`;
  const scope = new TestScope(name, parent?.testPath, parent?.test);
  scope.sessionCassette = cassette;
  return scope;
}
