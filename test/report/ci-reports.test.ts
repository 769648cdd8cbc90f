import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { packageFile } from "../fixtures/versions.js";

const config = join(import.meta.dirname, "../fixtures/plugin-project/vitest.config.ts");

test("JUnit output has no terminal colours, and a failing eval's conversation is its test case's system-out", {
  timeout: 60_000,
}, async () => {
  const out = join(mkdtempSync(join(tmpdir(), "tooltrace-junit-")), "junit.xml");
  await promisify(execFile)(
    process.execPath,
    [packageFile("vitest", "vitest.mjs"), "run", "--config", config, "--reporter=junit", `--outputFile=${out}`],
    {
      // Colours on, as on a developer's terminal: before, JUnit's `message` attributes kept the escapes.
      env: { ...process.env, CI: "1", FORCE_COLOR: "1" },
    },
  ).catch(() => undefined);
  const xml = readFileSync(out, "utf8");
  expect(xml).toContain("strict mode: no stub rule matched list_tasks({})");
  expect(xml).toContain('name="a tooltrace matcher that fails"');
  expect(xml).toContain("expect(received).toHaveCalledTool(expected)");
  expect(xml).not.toMatch(/\u001b\[|&#x1b;|&#27;/i);
  const strictCase = xml.slice(xml.indexOf('name="strict violation fails the test even though the agent recovered"'));
  const output = /<system-out>([\s\S]*?)<\/system-out>/.exec(strictCase.slice(0, strictCase.indexOf("</testcase>")))?.[1] ?? "";
  expect(output).toContain("user: hi");
  expect(output).toContain("list_tasks({}) → rejected [strict mode: no rule matched]");
  expect(output).toContain("agent: recovered");
});

test("on GitHub Actions the plugin writes the job summary: totals, the pass rate, a row per file, the failed evals", {
  timeout: 60_000,
}, async () => {
  const summary = join(mkdtempSync(join(tmpdir(), "tooltrace-summary-")), "summary.md");
  await promisify(execFile)(process.execPath, [packageFile("vitest", "vitest.mjs"), "run", "--config", config], {
    env: { ...process.env, CI: "1", GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary },
  }).catch(() => undefined);
  const text = readFileSync(summary, "utf8");
  expect(text).toContain("## tooltrace");
  expect(text).toMatch(
    /\| tests \| passed \| failed \| pass rate \| sessions \| tool calls \| model calls \| tokens \|\n\| ---: .*\n\| 15 \| 10 \| 5 \| 66\.7% \| \d+ \| \d+ \| \d+ \| \d+ \|/,
  );
  expect(text).toMatch(/\| [^|]*plugin\.agent-spec\.ts \| \d+ \| \d+ \|/);
  expect(text).toContain("- strict violation fails the test even though the agent recovered: [tooltrace] session 1: strict mode");
  expect(text).toMatch(
    /\| eval \| trials \| passed \| pass rate \| min \| pass\^k \|\n.*\n\| trials of a flaky agent pass above their minimum rate \| 8 \| \d \| \d+(\.\d)?% \| 25% \| pass\^1 0\.\d\d, pass\^8 0\.00 \|/,
  );
});
