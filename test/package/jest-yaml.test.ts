import { join } from "node:path";
import { expect, test } from "vitest";
import { runJest } from "../fixtures/jest-run.js";

const project = join(import.meta.dirname, "../fixtures/jest-yaml-project");

// YAML evals ran under the Vitest plugin only. Under Jest with `tooltrace/jest-yaml` as the transform of
// *.eval.yaml, each case is a Jest test: its mocks answer, a missed expectation fails it with the YAML line.
for (const esm of [false, true]) {
  test(`YAML evals run as Jest tests, one per case, in Jest's ${esm ? "ESM" : "CommonJS"} mode`, async () => {
    const config = join(project, esm ? "jest.esm.config.cjs" : "jest.config.cjs");
    const results = await runJest(config, { esm, env: esm ? {} : { NODE_OPTIONS: "" } });
    expect(results.get("weather-in-paris")?.status).toBe("passed");
    const missed = results.get("weather-missed");
    expect(missed?.status).toBe("failed");
    const said = missed?.failureMessages.join("\n") ?? "";
    expect(said).toContain('YAML eval "weather-missed": 0 of 1 variants passed: output lacks: 30°C');
    expect(said).toMatch(/weather\.eval\.yaml:\d+:\d+/);
    expect(said).not.toMatch(/tooltrace[/\\](src|dist)[/\\]/);
  }, 60_000);
}
