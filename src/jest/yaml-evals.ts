/**
 * What a `*.eval.yaml` file transformed by `tooltrace/jest-yaml` runs: one Jest test per case.
 *
 * @module tooltrace/jest-yaml-evals
 */
import { defineYamlEvals as defineFor, type YamlEvalsModule, type YamlEvalsRunner } from "../evals/define-yaml-evals.js";

export type { YamlEvalsModule } from "../evals/define-yaml-evals.js";

/** Declares one Jest test per case of a `*.eval.yaml` file, with the test file's own `test`, `beforeAll`, `afterAll`. */
export function defineYamlEvals(module: YamlEvalsModule): void {
  const jest = globalThis as unknown as YamlEvalsRunner;
  defineFor(module, { test: jest.test, beforeAll: jest.beforeAll, afterAll: jest.afterAll });
}
