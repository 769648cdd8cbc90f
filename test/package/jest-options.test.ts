import { join } from "node:path";
import { beforeAll, expect, test } from "vitest";
import { runJest } from "../fixtures/jest-run.js";

let results: Map<string, { status: string; failureMessages: string[] }>;

// Real Jest on the built package, its config setting
// `globals: { tooltrace: { strict: true, unusedRules: "error", trials: { concurrency: 3 } } }`.
beforeAll(async () => {
  const config = join(import.meta.dirname, "../fixtures/jest-options-project/jest.config.mjs");
  const env = { TOOLTRACE_STRICT: "", TOOLTRACE_LIVE: "", TOOLTRACE_UNUSED_RULES: "" };
  results = await runJest(config, { esm: true, env });
}, 60_000);

function failure(title: string): string {
  expect(results.get(title)?.status, title).toBe("failed");
  return results.get(title)?.failureMessages.join("\n") ?? "";
}

test("under Jest, globals.tooltrace.strict makes a session strict, and its refusal names that form", () => {
  const message = failure("the run's strict: an unstubbed tool call fails the test");
  expect(message).toContain("strict mode: no stub rule matched list_tasks({})");
  expect(message).toContain("drop `strict: true` from `globals.tooltrace` in the Jest config");
});

test('under Jest, globals.tooltrace.unusedRules: "error" fails a test that left a rule unused', () => {
  expect(failure("the run's unusedRules: an unused rule fails the test")).toContain("stub rules never used: never");
});

test("under Jest, the hermetic refusal's advice is the Jest config's, never the Vitest plugin's", () => {
  const refusal = failure("a request beyond this machine is refused, naming the Jest form");
  // Refused under `fetch`, as under Vitest (before, Jest's realm hid the dispatcher and DNS refused it).
  expect(refusal).toContain("GET http://api.example.test/ was sent, and tooltrace refused it");
  expect(refusal).toContain('globals: { tooltrace: { allowHosts: ["api.example.test"] } } in the Jest config');
  expect(refusal).toContain("globals: { tooltrace: { live: true } }");
  expect(refusal).not.toContain("tooltrace({");
  expect(refusal).not.toContain("Vitest");
});

test("under Jest, globals.tooltrace.trials.concurrency is the run's default for trials()", () => {
  const title = "the run's trials.concurrency: a trials() call that sets none runs that many at once";
  expect(results.get(title)?.status, results.get(title)?.failureMessages.join("\n")).toBe("passed");
});
