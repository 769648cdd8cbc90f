import { afterAll, beforeAll, test } from "vitest";
import { defineYamlEvals as defineFor, type YamlEvalsModule } from "../evals/define-yaml-evals.js";

export type { YamlEvalsModule } from "../evals/define-yaml-evals.js";

/** Declares one Vitest test per case of a `*.eval.yaml` file: what the plugin's generated module calls. */
export function defineYamlEvals(module: YamlEvalsModule): void {
  defineFor(module, { test, beforeAll, afterAll });
}
