import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";

interface JsonReport {
  testResults: { assertionResults: { title: string; fullName: string; status: string; failureMessages: string[]; meta: { tooltrace?: { sessions: { name: string; turns: { text: string; toolCalls: unknown[] }[]; unusedRuleIds: string[] }[] } } }[] }[];
}

const config = join(import.meta.dirname, "../fixtures/plugin-project/vitest.config.ts");

/** Runs the fixture project in its own Vitest process, as a user would, and reads the JSON report. */
async function runFixture(unused: "warn" | "error") {
  const out = join(mkdtempSync(join(tmpdir(), "tooltrace-plugin-")), "report.json");
  const result = await promisify(execFile)(process.execPath, [join("node_modules", "vitest", "vitest.mjs"), "run", "--config", config, "--reporter=json", "--reporter=default", `--outputFile.json=${out}`], {
    env: { ...process.env, FIXTURE_UNUSED: unused, CI: "1" },
  }).catch((error: { stdout: string; stderr: string }) => error);
  const report = JSON.parse(readFileSync(out, "utf8")) as JsonReport;
  const tests = new Map(report.testResults.flatMap((file) => file.assertionResults).map((item) => [item.title, item]));
  return { tests, stderr: result.stderr };
}

describe("the tooltrace() Vitest plugin, in a user's project", () => {
  test("warn policy: matchers registered, user config kept, failures and restores as promised", async () => {
    const { tests, stderr } = await runFixture("warn");
    const status = (title: string) => tests.get(title)?.status;

    expect(status("user config is kept")).toBe("passed");

    expect(status("leaves an unused rule")).toBe("passed");
    expect(stderr).toContain("[tooltrace] unused-session: stub rules never used: never-used.");

    expect(status("strict violation fails the test even though the agent recovered")).toBe("failed");
    expect(tests.get("strict violation fails the test even though the agent recovered")?.failureMessages.join("\n")).toContain(
      "strict mode: no stub rule matched list_tasks({}), so the real tool did not run",
    );

    expect(status("a failing test still gets its tools restored")).toBe("failed");
    expect(status("tools were restored after the failed test")).toBe("passed");
    expect(status("a broken stub fails the test at setup")).toBe("passed");

    for (const name of ["one", "two"]) {
      const item = tests.get(`concurrent ${name} records its own turns`);
      expect(item?.status).toBe("passed");
      const sessions = item?.meta.tooltrace?.sessions ?? [];
      expect(sessions.map((session) => session.name)).toEqual([`concurrent-${name}`]);
      expect(sessions[0]?.turns[0]?.text).toBe(JSON.stringify(name));
      expect(sessions[0]?.turns[0]?.toolCalls).toHaveLength(1);
    }
  });

  test("error policy: an unused rule fails the test", async () => {
    const { tests } = await runFixture("error");
    const item = tests.get("leaves an unused rule");
    expect(item?.status).toBe("failed");
    expect(item?.failureMessages.join("\n")).toContain("unused-session: stub rules never used: never-used");
  });
});
