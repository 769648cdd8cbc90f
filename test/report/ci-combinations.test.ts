import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { packageFile } from "../fixtures/versions.js";

// The plugin's fixture run with each reporter combination a user meets, on GitHub Actions.
const config = join(import.meta.dirname, "../fixtures/plugin-project/vitest.config.ts");
const STRICT_CASE = 'name="strict violation fails the test even though the agent recovered"';

async function run(args: readonly string[], folder = mkdtempSync(join(tmpdir(), "tooltrace-ci-"))) {
  const summary = join(folder, "summary.md");
  const result = await promisify(execFile)(process.execPath, [packageFile("vitest", "vitest.mjs"), "run", "--config", config, ...args], {
    cwd: folder,
    env: { ...process.env, CI: "1", GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary },
  }).catch((error: { stdout: string; stderr: string }) => error);
  const printed = `${result.stdout}\n${result.stderr}`;
  return {
    folder,
    printed,
    summaries: existsSync(summary) ? (readFileSync(summary, "utf8").match(/^## tooltrace/gm) ?? []).length : 0,
    annotations: printed.split("\n").filter((line) => /^::error file=.*plugin\.agent-spec\.ts,.*line=\d+/.test(line)).length,
  };
}

/** The failing strict case's `system-out` in a JUnit file. */
function strictOutput(xml: string): string {
  const from = xml.slice(xml.indexOf(STRICT_CASE));
  return /<system-out>([\s\S]*?)<\/system-out>/.exec(from.slice(0, from.indexOf("</testcase>")))?.[1] ?? "";
}

describe("CI reports in every reporter combination, on GitHub Actions", { timeout: 120_000 }, () => {
  test("no reporter named: one job summary, annotations at the failing assertions", async () => {
    const { summaries, annotations } = await run([]);
    expect(summaries).toBe(1);
    expect(annotations).toBeGreaterThan(0);
  });

  test("the README's reporters (default and tooltrace/reporter): one job summary, and annotations still", async () => {
    const { summaries, annotations, folder } = await run(["--reporter=default", "--reporter=tooltrace/reporter"]);
    expect(summaries).toBe(1);
    expect(annotations).toBeGreaterThan(0);
    expect(existsSync(join(folder, "tooltrace-report", "index.html"))).toBe(true);
  });

  test("JUnit only: annotations, and each failing eval's conversation as its system-out", async () => {
    const folder = mkdtempSync(join(tmpdir(), "tooltrace-ci-"));
    const { annotations } = await run(["--reporter=junit", `--outputFile=${join(folder, "junit.xml")}`], folder);
    expect(annotations).toBeGreaterThan(0);
    const output = strictOutput(readFileSync(join(folder, "junit.xml"), "utf8"));
    expect(output).toContain("user: hi");
    expect(output).toContain("list_tasks({}) → rejected [strict mode: no rule matched]");
  });

  test("blob shards merged into JUnit: the conversations are there, carried with the tests' metadata", async () => {
    const folder = mkdtempSync(join(tmpdir(), "tooltrace-ci-"));
    const blobs = join(folder, "blobs");
    for (const shard of ["1/2", "2/2"])
      await run([`--shard=${shard}`, "--reporter=blob", `--outputFile=${join(blobs, `blob-${shard.replace("/", "-")}.json`)}`], folder);
    await run([`--merge-reports=${blobs}`, "--reporter=junit", `--outputFile=${join(folder, "junit.xml")}`], folder);
    const output = strictOutput(readFileSync(join(folder, "junit.xml"), "utf8"));
    expect(output).toContain("user: hi");
    expect(output).toContain("agent: recovered");
  });
});
