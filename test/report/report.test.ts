import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { type ReportData, readReport } from "tooltrace/reporter";
import { runWithReport } from "../fixtures/report-run.js";
import { packageFile } from "../fixtures/versions.js";

const root = join(import.meta.dirname, "../..");
/** The plugin fixture run as a user would, with the tooltrace reporter beside the default one. */
let run: { stdout: string; folder: string };
beforeAll(async () => {
  run = await runWithReport();
}, 60_000);

describe("the trace viewer's report, written by the tooltrace reporter", () => {
  test("the run ends by naming the report; the folder holds one self-contained page and its data", () => {
    expect(run.stdout).toMatch(
      /\[tooltrace\] report: tooltrace-report\/index\.html \(\d+ tests, \d+ failed(, \d+ files? with errors outside their tests)?\); open it with: npx tooltrace show tooltrace-report/,
    );
    // Outside watch mode nothing is served.
    expect(run.stdout).not.toContain("live viewer");
    const html = readFileSync(join(run.folder, "index.html"), "utf8");
    expect(html).not.toContain("connect-src");
    // Nothing is fetched: no external script, style, image or font.
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/);
    expect(html).toContain("default-src 'none'");
    const data = readReport(run.folder);
    const strict = data.tests.find((test) => test.fullName.includes("strict violation fails the test even though the agent recovered"));
    expect(strict?.state).toBe("failed");
    expect(strict?.errors.join("\n")).toContain("strict mode: no stub rule matched list_tasks({})");
    // Failure messages without terminal colours.
    for (const test of data.tests) for (const error of test.errors) expect(error).not.toMatch(/\u001b\[/);
    // A file that throws at import is a failed entry, counted in the line the run ends with.
    const broken = data.tests.find((test) => test.file === "broken.viewer-spec.ts");
    expect(broken).toMatchObject({ fullName: "(the file failed to load)", state: "failed" });
    expect(broken?.errors.join("\n")).toContain("this file fails at import");
    const tests = data.tests.filter((test) => !test.fileErrors);
    const failed = tests.filter((test) => test.state === "failed").length;
    expect(run.stdout).toContain(`(${tests.length} tests, ${failed} failed, 2 files with errors outside their tests)`);
    const concurrent = data.tests.find((test) => test.fullName.includes("concurrent one records its own turns"));
    expect(concurrent?.meta?.sessions[0]?.turns[0]?.toolCalls).toHaveLength(1);
  });

  test("`tooltrace show` prints the page of a report folder, and makes one for the JSON reporter's file", async () => {
    const bin = join(root, "dist", "bin.js");
    const folder = await promisify(execFile)(process.execPath, [bin, "show", run.folder, "--no-open"]);
    expect(folder.stdout.trim()).toBe(join(run.folder, "index.html"));
    // Without a display it says so, and what to do (it started xdg-open, which failed silently, before).
    const { CI: _ci, DISPLAY: _display, WAYLAND_DISPLAY: _wayland, ...headless } = process.env;
    const opened = await promisify(execFile)(process.execPath, [bin, "show", run.folder], { env: headless });
    expect(opened.stdout.trim()).toBe(join(run.folder, "index.html"));
    expect(opened.stderr).toContain("no browser could be opened here (no display: DISPLAY and WAYLAND_DISPLAY are unset)");
    const json = join(mkdtempSync(join(tmpdir(), "tooltrace-show-json-")), "tooltrace-turns.json");
    writeFileSync(json, JSON.stringify(readReport(run.folder)));
    const fromJson = await promisify(execFile)(process.execPath, [bin, "show", json, "--no-open"]);
    const page = fromJson.stdout.trim();
    expect(existsSync(page)).toBe(true);
    expect(readFileSync(page, "utf8")).toContain('id="tooltrace-data"');
    const missing = await promisify(execFile)(process.execPath, [bin, "show", join(run.folder, "nothing.json"), "--no-open"]).catch(
      (error: { stderr: string; code: number }) => error,
    );
    if (!("code" in missing)) throw new Error("`tooltrace show` of a missing file succeeded");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("does not exist.");
  });
});

test("the JSON turn format as a reporter of its own: every test with its sessions' turns, nothing else", { timeout: 60_000 }, async () => {
  const cwd = mkdtempSync(join(tmpdir(), "tooltrace-json-reporter-"));
  await promisify(execFile)(
    process.execPath,
    [
      packageFile("vitest", "vitest.mjs"),
      "run",
      "--config",
      join(import.meta.dirname, "../fixtures/plugin-project/vitest.config.ts"),
      "--reporter=tooltrace/json-reporter",
    ],
    { cwd, env: { ...process.env, CI: "1" } },
  ).catch(() => undefined);
  const data = JSON.parse(readFileSync(join(cwd, "tooltrace-turns.json"), "utf8")) as ReportData;
  expect(data.version).toBe(2);
  const concurrent = data.tests.find((test) => test.fullName.includes("concurrent two records its own turns"));
  expect(concurrent?.meta?.sessions[0]?.turns[0]).toMatchObject({
    version: 2,
    userMessage: expect.any(String),
    toolCalls: [expect.objectContaining({ tool: "list_tasks" })],
  });
  expect(existsSync(join(cwd, "tooltrace-report"))).toBe(false);
});
