import { join } from "node:path";
import { expect, test } from "vitest";
import { rerecordCommand } from "../../src/cassettes/rerecord.js";

const file = join(process.cwd(), "evals/weather.eval.ts");

test("the command that records one test's cassette again matches it by Vitest's -t, inside describe too", () => {
  const writer = { description: "session 1", test: undefined, index: 0, strict: false, file };
  expect(rerecordCommand({ ...writer, testName: "weather > capital (France)" }, "auto")).toBe(
    "TOOLTRACE_CASSETTE=record npx vitest run evals/weather.eval.ts -t 'weather capital \\(France\\)'",
  );
  expect(rerecordCommand({ ...writer, testName: "it's" }, undefined)).toBe(
    `TOOLTRACE_CASSETTE=record npx vitest run evals/weather.eval.ts -t 'it'\\''s'`,
  );
  expect(rerecordCommand({ ...writer, testName: "t" }, "replay")).toBe(
    `set its session's \`cassette.mode\` to "auto" (it is "replay"), then TOOLTRACE_CASSETTE=record npx vitest run evals/weather.eval.ts -t 't'`,
  );
});
