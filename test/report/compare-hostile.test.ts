// `tooltrace show --compare` on reports whose names and numbers are hostile or malformed: two report files
// written by hand, in the shape the tooltrace reporter writes (src/report/report-data.ts), compared by the
// real CLI. Its `--markdown` goes into CI logs and pull-request comments; its page is opened in a browser.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";

const bin = join(import.meta.dirname, "../../dist/bin.js");
const run = promisify(execFile);

/** One turn (JSON form) whose tool calls are `tools`, in order. */
function turn(tools: readonly string[]) {
  return {
    index: 0,
    userMessage: "go",
    status: "completed",
    text: "done",
    toolCalls: tools.map((tool, i) => ({
      kind: "tool",
      seq: i + 1,
      id: `call-${i}`,
      tool,
      path: [],
      qualifiedName: tool,
      input: {},
      status: "completed",
      output: 1,
      answeredBy: { kind: "real" },
    })),
    modelCalls: [],
    httpCalls: [],
    violations: [],
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    durationMs: 1,
  };
}

/** A passed test of `a.eval.ts` with one session that called `tools`. */
function reportTest(fullName: unknown, tools: readonly string[], over: Record<string, unknown> = {}) {
  const session = { name: "agent", strict: false, turns: [turn(tools)], tools: {}, unusedRuleIds: [], violations: [] };
  return {
    id: `a#${String(fullName)}`,
    file: "a.eval.ts",
    fullName,
    state: "passed",
    errors: [],
    meta: { version: 2, sessions: [session] },
    ...over,
  };
}

const report = (tests: readonly unknown[]) => ({ version: 2, generatedAt: "2025-01-01T00:00:00.000Z", tests });

/** The CLI comparing the two reports (written to files) with `flags`: its exit code and what it printed. */
async function compare(baseline: unknown, current: unknown, ...flags: string[]) {
  const folder = mkdtempSync(join(tmpdir(), "tooltrace-compare-hostile-"));
  const files = [join(folder, "baseline.json"), join(folder, "current.json")] as const;
  writeFileSync(files[0], JSON.stringify(baseline));
  writeFileSync(files[1], JSON.stringify(current));
  const result = await run(process.execPath, [bin, "show", "--compare", ...files, ...flags]).then(
    (done) => ({ code: 0, ...done }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  return { files, code: result.code, stdout: result.stdout, stderr: result.stderr };
}

/** The lines of a markdown text outside its fenced code blocks (CommonMark: a fence closes on a line of at least as many of its characters). */
function outsideCode(markdown: string): string[] {
  const outside: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split(/\r\n|\r|\n/)) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined) {
      if (marker === undefined) outside.push(line);
      else fence = marker;
    } else if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
  }
  return outside;
}

describe("show --compare --markdown: what a test or a model named stays text in the log and the comment", () => {
  test("a test name with a line break and a tool name the model chose print no line starting `::` (a workflow command)", async () => {
    // Problem: the markdown printed `::error` and `::warning` lines, which GitHub Actions runs as workflow commands.
    const name = "books a flight\n::error file=README.md,line=1::injected by a test name";
    const tool = "lookup\n::warning::injected by a tool name";
    const { code, stdout } = await compare(
      report([reportTest(name, ["search"]), reportTest("looks up", ["lookup"])]),
      report([reportTest(name, ["search_v2"]), reportTest("looks up", [tool])]),
      "--markdown",
    );
    expect(code).toBe(0);
    const commands = stdout
      .split(/\r\n|\r|\n/)
      .map((line) => line.trimStart())
      .filter((line) => line.startsWith("::"));
    expect(commands).toEqual([]);
  });

  test("a tool name holding ``` stays inside its diff block: no `</details>` or `<img>` of its own reaches the comment", async () => {
    // Problem: three backticks in a tool name closed the ```diff block, and what followed was the comment's markup.
    const tool = "lookup\n```\n</details>\n<img src=https://attacker.invalid/pixel.png>";
    const { code, stdout } = await compare(
      report([reportTest("looks up", ["lookup"])]),
      report([reportTest("looks up", [tool])]),
      "--markdown",
    );
    expect(code).toBe(0);
    expect(stdout).toContain("looks up: the path changed");
    const markup = outsideCode(stdout);
    expect(markup.filter((line) => /<img/i.test(line))).toEqual([]);
    expect(markup.filter((line) => line.includes("</details>")).length).toBe(markup.filter((line) => line.includes("<details>")).length);
  });
});

describe("show --compare's page: a report's values never become its markup", () => {
  test("trial counts that are strings are refused with their pointer, or put no element into the page", async () => {
    // Problem: `passed: "<b id=\"injected\">"` was concatenated into the page as an element (its policy stops scripts, not markup).
    const trials = (passed: unknown) => [{ passed, count: 10 }];
    const { code, stdout, stderr } = await compare(
      report([reportTest("books", ["search"], { meta: { version: 2, sessions: [], trials: trials(5) } })]),
      report([reportTest("books", ["search"], { meta: { version: 2, sessions: [], trials: trials('<b id="injected">x</b>') } })]),
      "--no-open",
    );
    if (code !== 0) expect(stderr).toMatch(/\/tests\/0\/meta\/trials\/0\/passed/);
    else expect(readFileSync(stdout.trim(), "utf8").match(/\S*<b id="injected">/g) ?? []).toEqual([]);
  });
});

describe("show --compare on a malformed report: a clear error naming the file and the field", () => {
  test('`{"tests":[null]}` is refused naming the file and /tests/0, not with a TypeError', async () => {
    // Problem: it printed "Cannot read properties of null (reading 'file')", naming neither the file nor the entry.
    const { code, files, stderr } = await compare({ tests: [null] }, report([reportTest("books", ["search"])]), "--markdown");
    expect(code).toBe(1);
    expect(stderr).not.toContain("Cannot read properties");
    expect(stderr).toContain(files[0]);
    expect(stderr).toMatch(/\/tests\/0\b/);
  });

  test("a test whose name is a number is shown as itself, or refused naming /tests/0/fullName, in the markdown and on the page", async () => {
    // Problem: the page failed with "text.replace is not a function", naming neither the file nor the field.
    const baseline = report([reportTest("books", ["search"])]);
    const current = report([reportTest(5, ["search"])]);
    for (const flag of ["--markdown", "--no-open"]) {
      const { code, stdout, stderr } = await compare(baseline, current, flag);
      if (code !== 0) {
        expect(stderr, flag).toMatch(/\/tests\/0\/fullName/);
        continue;
      }
      const shown = flag === "--markdown" ? stdout : readFileSync(stdout.trim(), "utf8");
      expect(shown, flag).toMatch(/a\.eval\.ts › 5 \||<div class="name">5<\/div>/);
      expect(shown, flag).not.toContain("[object Object]");
    }
  });

  test("a test whose file is not a string is refused naming /tests/0/file, never shown as `[object Object]`", async () => {
    // Problem: the markdown showed `[object Object] › 5` for `{ file: {}, fullName: 5 }`.
    const { code, files, stdout, stderr } = await compare(
      report([reportTest("books", ["search"])]),
      report([reportTest(5, ["search"], { file: { path: "a.eval.ts" } })]),
      "--markdown",
    );
    expect(stdout).not.toContain("[object Object]");
    expect(code).toBe(1);
    expect(stderr).toContain(files[1]);
    expect(stderr).toMatch(/\/tests\/0\/file/);
  });
});
