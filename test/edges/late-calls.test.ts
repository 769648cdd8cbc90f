import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { packageFile } from "../fixtures/versions.js";

interface FileResult {
  name: string;
  status: string;
  message: string;
  assertionResults: { title: string; status: string; failureMessages: string[] }[];
}

// A counting upstream in this process: the fixture runs in a process of its own, so this is "the network" to it.
let upstream: Server;
let upstreamUrl: string;
const received: string[] = [];
beforeAll(async () => {
  upstream = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    response.end("{}");
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => upstream.close(resolve)));

async function runLateProject(mode: "same-file" | "cross-file", args: readonly string[]) {
  const dir = mkdtempSync(join(tmpdir(), "tooltrace-late-"));
  const log = join(dir, "real-runs.log");
  writeFileSync(log, "");
  const out = join(dir, "report.json");
  const config = join(import.meta.dirname, "../fixtures/late-project/vitest.config.ts");
  const run = await promisify(execFile)(
    process.execPath,
    [packageFile("vitest", "vitest.mjs"), "run", "--config", config, "--reporter=json", `--outputFile.json=${out}`, ...args],
    { env: { ...process.env, CI: "1", LATE_LOG: log, UPSTREAM: upstreamUrl, LATE_MODE: mode } },
  ).then(
    () => ({ code: 0 }),
    (error: { code: number }) => ({ code: error.code }),
  );
  const files = (JSON.parse(readFileSync(out, "utf8")) as { testResults: FileResult[] }).testResults;
  const file = (name: string) => files.find((result) => result.name.endsWith(name)) as FileResult;
  return { code: run.code, file, realRuns: readFileSync(log, "utf8") };
}

describe("late calls of a closed strict session", () => {
  test("a timer the agent left behind never runs the real tool or reaches the network, and fails its own file", async () => {
    const before = received.length;
    const { code, file, realRuns } = await runLateProject("same-file", []);
    expect(realRuns).toBe("");
    expect(received.length).toBe(before);
    const a = file("a-leaves-a-timer.agent-spec.ts");
    expect(a.assertionResults.map((test) => test.status)).toEqual(["passed", "passed"]);
    expect(a.status).toBe("failed");
    expect(a.message).toMatch(
      /late-a of test "a strict turn returns and leaves a timer behind": danger\(\{"x":"late"\}\) arrived after turn 0 had ended; refused by strict mode/,
    );
    expect(a.message).toMatch(/HTTP GET http:\/\/127\.0\.0\.1:\d+\/late-fetch arrived after turn 0 had ended; refused by strict mode/);
    expect(file("b-runs-while-it-arrives.agent-spec.ts").status).toBe("passed");
    expect(code).not.toBe(0);
  }, 60_000);

  test("with --no-isolate, a call arriving while another file runs fails the file it came from, never the running one", async () => {
    const before = received.length;
    const { code, file, realRuns } = await runLateProject("cross-file", ["--no-isolate", "--pool=forks", "--maxWorkers=1"]);
    expect(realRuns).toBe("");
    expect(received.length).toBe(before);
    const a = file("a-leaves-a-timer.agent-spec.ts");
    expect(a.status).toBe("failed");
    expect(a.message).toMatch(
      /late-a of test "a strict turn returns and leaves a timer behind": danger\(\{"x":"late"\}\) arrived after turn 0 had ended/,
    );
    const b = file("b-runs-while-it-arrives.agent-spec.ts");
    expect(b.status).toBe("passed");
    expect(b.message).toBe("");
    expect(code).not.toBe(0);
  }, 60_000);

  test("a strict session made at module level or in beforeAll fails the test whose turn violated it", async () => {
    const { file, realRuns } = await runLateProject("same-file", []);
    expect(realRuns).toBe("");
    const c = file("c-module-level.agent-spec.ts");
    expect(c.assertionResults.map((test) => [test.title, test.status])).toEqual([
      ["a turn of a strict session made at module level", "failed"],
      ["a turn of a strict session made in beforeAll", "failed"],
      ["a test that sends nothing passes", "passed"],
    ]);
    expect(c.assertionResults[0]?.failureMessages.join("\n")).toContain("module-level: strict mode: no stub rule matched danger");
    expect(c.assertionResults[1]?.failureMessages.join("\n")).toContain("before-all: strict mode: no stub rule matched danger");
  }, 60_000);
});
