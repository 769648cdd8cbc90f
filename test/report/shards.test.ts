import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { type ReportData, readReport } from "tooltrace/reporter";
import { packageFile } from "../fixtures/versions.js";

const config = join(import.meta.dirname, "../fixtures/plugin-project/vitest.config.ts");
const vitest = (cwd: string, ...args: string[]) =>
  promisify(execFile)(process.execPath, [packageFile("vitest", "vitest.mjs"), "run", "--config", config, ...args], {
    cwd,
    env: { ...process.env, CI: "1" },
  }).catch((error: { stdout: string }) => error);

// Vitest's sharding is the distributed engine: each machine runs a shard into a blob, one merges them.
test("two shards, run apart and merged, give one report holding both shards' tests and their traces", { timeout: 120_000 }, async () => {
  const work = mkdtempSync(join(tmpdir(), "tooltrace-shards-"));
  const blobs = join(work, "blobs");
  await Promise.all(
    [1, 2].map((shard) => vitest(work, `--shard=${shard}/2`, "--reporter=blob", `--outputFile=${join(blobs, `blob-${shard}.json`)}`)),
  );
  const merged = await vitest(work, "--merge-reports", blobs, "--reporter=tooltrace/reporter");
  expect(merged.stdout).toMatch(
    /\[tooltrace\] report: tooltrace-report\/index\.html \(\d+ tests, \d+ failed(, \d+ files? with errors outside their tests)?\)/,
  );
  const data = readReport(join(work, "tooltrace-report"));
  // The same tests as one machine running them all.
  const whole = mkdtempSync(join(tmpdir(), "tooltrace-unsharded-"));
  await vitest(whole, "--reporter=tooltrace/reporter");
  const single = readReport(join(whole, "tooltrace-report"));
  const names = (report: ReportData) => report.tests.map((test) => test.fullName).sort();
  expect(names(data)).toEqual(names(single));
  expect(new Set(data.tests.map((test) => test.file)).size).toBeGreaterThan(1);
  const concurrent = data.tests.find((test) => test.fullName.includes("concurrent one records its own turns"));
  expect(concurrent?.meta?.sessions[0]?.turns[0]?.toolCalls).toHaveLength(1);
  expect(data.tests.filter((test) => test.meta !== undefined).length).toBe(single.tests.filter((test) => test.meta !== undefined).length);
});
