import { afterEach, expect, test } from "vitest";
import { runFlags } from "../../src/base/run-flags.js";
import { hermeticRefusal } from "../../src/edges/edge-messages.js";
import { readJestOptions } from "../../src/jest/options.js";

const setup = runFlags.setup;
afterEach(() => {
  runFlags.setup = setup;
  delete (globalThis as { tooltrace?: unknown }).tooltrace;
});

const target = { channel: "dns", host: "api.example.test" } as const;

test("the hermetic refusal names the option in the form of the runner in use", () => {
  runFlags.setup = "vitest";
  expect(hermeticRefusal(target)).toContain('tooltrace({ allowHosts: ["api.example.test"] }) in the Vitest config');
  runFlags.setup = "jest";
  expect(hermeticRefusal(target)).toContain('globals: { tooltrace: { allowHosts: ["api.example.test"] } } in the Jest config');
  // A plain script has no run-wide options: the session's own, and the environment.
  runFlags.setup = undefined;
  const plain = hermeticRefusal(target);
  expect(plain).toContain('createSession({ allowHosts: ["api.example.test"] }) for this session, or TOOLTRACE_LIVE=1');
  expect(plain).not.toMatch(/tooltrace\(\{|globals:/);
});

test("under Jest, a wrong option in globals.tooltrace is refused in the Jest form, naming what to write", () => {
  runFlags.setup = "jest";
  (globalThis as { tooltrace?: unknown }).tooltrace = { unusedRules: "eror" };
  expect(() => readJestOptions()).toThrow('globals.tooltrace.unusedRules: use "warn", "error" or "ignore", got "eror".');
  (globalThis as { tooltrace?: unknown }).tooltrace = { allowHosts: ["https://api.example.com/"] };
  expect(() => readJestOptions()).toThrow("globals.tooltrace.allowHosts[0]");
  (globalThis as { tooltrace?: unknown }).tooltrace = { llm: true };
  expect(() => readJestOptions()).toThrow("`llm` is not an option under Jest");
  (globalThis as { tooltrace?: unknown }).tooltrace = { strict: "yes" };
  expect(() => readJestOptions()).toThrow("globals.tooltrace.strict: use true or false");
});

test("under Jest, TOOLTRACE_UNUSED_RULES still sets the policy when globals.tooltrace does not", () => {
  runFlags.setup = "jest";
  const before = process.env.TOOLTRACE_UNUSED_RULES;
  process.env.TOOLTRACE_UNUSED_RULES = "ignore";
  try {
    expect(readJestOptions().unusedRules).toBe("ignore");
    (globalThis as { tooltrace?: unknown }).tooltrace = { unusedRules: "error" };
    expect(readJestOptions().unusedRules).toBe("error");
  } finally {
    if (before === undefined) delete process.env.TOOLTRACE_UNUSED_RULES;
    else process.env.TOOLTRACE_UNUSED_RULES = before;
  }
});
