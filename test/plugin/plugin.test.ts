import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { packageFile } from "../fixtures/versions.js";

interface JsonReport {
  testResults: {
    name: string;
    status: string;
    message: string;
    assertionResults: {
      title: string;
      fullName: string;
      status: string;
      failureMessages: string[];
      meta: {
        tooltrace?: {
          version: number;
          sessions: { name: string; turns: { text: string; toolCalls: unknown[] }[]; unusedRuleIds: string[] }[];
        };
      };
    }[];
  }[];
}

const config = join(import.meta.dirname, "../fixtures/plugin-project/vitest.config.ts");

/** Runs the fixture project in its own Vitest process, as a user would, and reads the JSON report. */
async function runFixture(unused: "warn" | "error") {
  const out = join(mkdtempSync(join(tmpdir(), "tooltrace-plugin-")), "report.json");
  const result = await promisify(execFile)(
    process.execPath,
    [packageFile("vitest", "vitest.mjs"), "run", "--config", config, "--reporter=json", "--reporter=default", `--outputFile.json=${out}`],
    {
      env: { ...process.env, FIXTURE_UNUSED: unused, CI: "1" },
    },
  ).catch((error: { stdout: string; stderr: string }) => error);
  const report = JSON.parse(readFileSync(out, "utf8")) as JsonReport;
  const tests = new Map(report.testResults.flatMap((file) => file.assertionResults).map((item) => [item.title, item]));
  return { tests, files: report.testResults, stderr: result.stderr };
}

/** Runs another fixture project (`test/fixtures/<name>`) in its own Vitest process and returns its test results. */
async function runProject(name: string) {
  const out = join(mkdtempSync(join(tmpdir(), `tooltrace-${name}-`)), "report.json");
  const projectConfig = join(import.meta.dirname, `../fixtures/${name}/vitest.config.ts`);
  await promisify(execFile)(
    process.execPath,
    [packageFile("vitest", "vitest.mjs"), "run", "--config", projectConfig, "--reporter=json", `--outputFile.json=${out}`],
    { env: { ...process.env, CI: "1" } },
  ).catch(() => undefined);
  const report = JSON.parse(readFileSync(out, "utf8")) as JsonReport;
  return report.testResults.flatMap((file) => file.assertionResults);
}

describe("the tooltrace() Vitest plugin, in a user's project", () => {
  let warnRun: Awaited<ReturnType<typeof runFixture>>;
  beforeAll(async () => {
    warnRun = await runFixture("warn");
  }, 60_000);

  test("warn policy: matchers registered, user config kept, failures and restores as promised", () => {
    const { tests, stderr } = warnRun;
    const status = (title: string) => tests.get(title)?.status;

    expect(status("user config is kept")).toBe("passed");
    // The plugin's options reach the worker: `trials: { concurrency: 3 }` is the default of trials() there.
    expect(status("trials run three at a time, as the plugin's trials.concurrency says")).toBe("passed");
    // An explicit `include` is the user's: an eval file it leaves out is not run.
    expect(warnRun.files.map((file) => file.name).filter((name) => name.endsWith(".eval.ts"))).toEqual([]);

    expect(status("leaves an unused rule")).toBe("passed");
    expect(stderr).toContain("[tooltrace] unused-session: stub rules never used: never-used.");

    expect(status("strict violation fails the test even though the agent recovered")).toBe("failed");
    expect(tests.get("strict violation fails the test even though the agent recovered")?.failureMessages.join("\n")).toContain(
      "strict mode: no stub rule matched list_tasks({}), so the real tool did not run",
    );
    // The failure points at the test's own line (where its turn was sent), not at tooltrace's after-test hook.
    const stack = tests.get("strict violation fails the test even though the agent recovered")?.failureMessages.join("\n") ?? "";
    expect(stack).toMatch(/plugin\.agent-spec\.ts:\d+:\d+/);
    expect(stack).not.toContain("finish-test");

    expect(status("a failing test still gets its tools restored")).toBe("failed");
    expect(status("tools were restored after the failed test")).toBe("passed");
    expect(status("a broken stub fails the test at setup")).toBe("passed");

    expect(tests.get("concurrent one records its own turns")?.meta.tooltrace?.version).toBe(2);
    for (const name of ["one", "two"]) {
      const item = tests.get(`concurrent ${name} records its own turns`);
      expect(item?.status).toBe("passed");
      const sessions = item?.meta.tooltrace?.sessions ?? [];
      expect(sessions.map((session) => session.name)).toEqual([`concurrent-${name}`]);
      expect(sessions[0]?.turns[0]?.text).toBe(JSON.stringify(name));
      expect(sessions[0]?.turns[0]?.toolCalls).toHaveLength(1);
    }
  });

  test("a test that times out says what was pending, closes its wire server, and a late call never runs the real tool", () => {
    const { tests, files, stderr } = warnRun;
    const hanging = tests.get("times out on a model call that never answers");
    expect(hanging?.status).toBe("failed");
    expect(hanging?.failureMessages.join("\n")).toMatch(
      /hanging-session: turn 0 was still running when its test ended\. Pending: model call to tooltrace mock-model \(script step 2\), last user message "Summarise my week", pending for \d+ ms\./,
    );
    expect(tests.get("times out, and its agent calls a tool after the test ended")?.status).toBe("failed");
    expect(tests.get("the next test runs while the late call arrives")?.status).toBe("passed");
    expect(tests.get("nothing ran for real, and the timed-out test's wire server was closed")?.status).toBe("passed");
    const lateReport =
      /late-session of test "times out, and its agent calls a tool after the test ended": list_tasks\(\{"from":"late"\}\) arrived after turn 0 had ended; refused by strict mode/;
    expect(stderr).toMatch(lateReport);
    const file = files.find((item) => item.name.endsWith("hangs.agent-spec.ts"));
    expect(file?.status).toBe("failed");
    expect(file?.message).toMatch(lateReport);
  });

  test("error policy: an unused rule fails the test", { timeout: 60_000 }, async () => {
    const { tests } = await runFixture("error");
    const item = tests.get("leaves an unused rule");
    expect(item?.status).toBe("failed");
    expect(item?.failureMessages.join("\n")).toContain("unused-session: stub rules never used: never-used");
  });

  test("llm: true starts the wire mock before the app's modules load (a module-level client was a connection error)", {
    timeout: 60_000,
  }, async () => {
    const results = await runProject("llm-project");
    expect(results.map((result) => [result.title, result.status, result.failureMessages.join(" ").slice(0, 200)])).toEqual([
      ["a module-level client reaches the wire mock; the session scripts the model", "passed", ""],
      ["a session without its own model gets the default reply", "passed", ""],
    ]);
  });

  test("middleware: modules named in the plugin apply to every session, before each session's own", { timeout: 60_000 }, async () => {
    const results = await runProject("middleware-project");
    expect(results.map((result) => [result.title, result.status, result.failureMessages.join(" ").slice(0, 300)])).toEqual([
      ["the plugin's middleware grades every session, before the session's own", "passed", ""],
      ["a wrong answer is graded as failing", "passed", ""],
    ]);
  });
});
