import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import * as vitestModule from "vitest";
import { afterAll, beforeAll, expect, test } from "vitest";
import { EXITS, type ExitName } from "../../src/exits/registry.js";
import { packageFile } from "../fixtures/versions.js";

// One eval run that reaches every exit in the registry (src/exits/registry.ts), with a corpus of planted
// secrets in every form the secrets tests know; every byte of every output is scanned. An exit the registry
// gains without a place here to find its bytes fails this test: so does one the run does not reach.
const root = join(import.meta.dirname, "../..");
const project = join(import.meta.dirname, "../fixtures/every-exit-project");
const config = join(project, "vitest.config.ts");
const nonce = Math.random().toString(36).slice(2, 8);
const secret = (n: number) => `leak${String(n).padStart(2, "0")}x${nonce}Q`;
/** Each planted value as it would leak: the value, the key-format key, and the base64 of JSON holding a password. */
const planted = [
  ...Array.from({ length: 18 }, (_, i) => secret(i + 1)),
  `sk-proj-${nonce}Kf0Aa1Bb2Cc3Dd4Ee5Ff6`,
  Buffer.from(JSON.stringify({ password: secret(5) })).toString("base64"),
];

/** Where each exit's bytes are found in the run; "private" exits hold the test's own data, readable by its process alone, and are gone after. */
const FOUND_IN: Record<ExitName, string> = {
  "matcher message": "the run's log, JUnit, the report, the JSON reporter's file",
  "judge message": "the run's log, JUnit, the report",
  error: "the run's log, JUnit, the report",
  "task meta": "the report, the JSON reporter's file, JUnit's system-out, the job summary",
  "trials progress": "artifacts.json (each trial, as the live viewer's reporter gets it; the config provides the viewer's key)",
  snapshot: "exits.eval.ts.snap",
  console: "the run's log",
  "command output": "each command's log",
  cassette: "cassette.json, llm.json",
  "stale report": "the report cassettes check reads, and its log",
  "viewer page": "report/index.html, show's page, merged/index.html",
  "comparison page": "compare/index.html",
  "comparison markdown": "show --compare --markdown's log",
  "job summary": "summary.md",
  "json report": "turns.json",
  "junit output": "junit.xml",
  "jest handoff": "jest-handoff/ (the Jest eval copies it before tooltrace/jest-reporter reads and removes it)",
  "junit file": "jest-junit.xml",
  spans: "the OTLP collector's requests",
  "mcp definitions": "private: checked 0600 and gone after close, by the eval",
  "cli agent files": "private: checked 0600 and gone after the run, by the eval",
  "run locks": "private: in the temporary folder, for the run",
  "init files": "init's project (written from templates)",
};

/** OpenTelemetry's JS SDK needs Node 22.15: below it the export is refused, and the spans exit is not reached. */
const otelRuns = (() => {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 15);
})();

/** Vitest records test artifacts from 4.0.11 on: before it (3.2 in the matrix), trials send no progress. */
const artifacts = "recordArtifact" in vitestModule;

let collector: Server;
let otlp = "";
const exported: Buffer[] = [];
beforeAll(async () => {
  collector = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      exported.push(Buffer.concat(chunks));
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  otlp = `http://127.0.0.1:${(collector.address() as { port: number }).port}/v1/traces`;
});
afterAll(() => new Promise<void>((resolve) => collector.close(() => resolve())));

/** Every file under `folder`, by its path relative to it, as text (bytes read as Latin-1: none is lost). */
function files(folder: string, prefix = ""): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) for (const [inner, text] of files(path, `${prefix}${name}/`)) found.set(inner, text);
    else found.set(`${prefix}${name}`, readFileSync(path, "latin1"));
  }
  return found;
}

test("every exit is reached by one run with planted secrets in every form, and no byte of any output holds one", {
  timeout: 240_000,
}, async () => {
  expect(Object.keys(EXITS).filter((exit) => !(exit in FOUND_IN))).toEqual([]);
  const out = mkdtempSync(join(tmpdir(), "tooltrace-every-exit-"));
  const log = join(out, "exits.log");
  const { CI: _ci, GITHUB_ACTIONS: _gh, ...inherited } = process.env;
  const env = {
    ...inherited,
    NO_COLOR: "1",
    GITHUB_ACTIONS: "true",
    GITHUB_STEP_SUMMARY: join(out, "summary.md"),
    EXITS_OUT: out,
    EXITS_NONCE: nonce,
    EXITS_SERVICE_TOKEN: secret(10),
    TOOLTRACE_EXIT_LOG: log,
    ...(otelRuns ? { EXITS_OTLP: otlp } : {}),
  };
  const logs = new Map<string, string>();
  const run = async (name: string, args: readonly string[], extra: Record<string, string> = {}, cwd = project) => {
    const result = await promisify(execFile)(process.execPath, args, { cwd, env: { ...env, ...extra } }).then(
      (done) => ({ code: 0, ...done }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    logs.set(name, `${result.stdout}\n${result.stderr}`);
    return result;
  };
  const vitest = packageFile("vitest", "vitest.mjs");
  const bin = join(root, "dist", "bin.js");

  // The run: every eval, recording its cassettes, writing its snapshot (-u).
  const first = await run("vitest run", [vitest, "run", "--config", config, "-u"]);
  expect(logs.get("vitest run")).toMatch(/Tests\s+3 failed \| 6 passed/);
  expect(first.code).toBe(1);
  // The same outputs under Jest, through tooltrace/jest-reporter.
  const jest = await run("jest run", [packageFile("jest", "bin", "jest.js"), "--config", join(project, "jest.config.cjs"), "--ci"]);
  expect(jest.code, logs.get("jest run")).toBe(1);
  expect(logs.get("jest run")).toContain("Tests:       1 failed, 1 total");
  const firstReport = join(out, "first-report");
  mkdirSync(firstReport);
  writeFileSync(join(firstReport, "index.html"), readFileSync(join(out, "report", "index.html")));
  // The check: the suite again, replaying, with the prompt changed since it was recorded.
  await run("cassettes check", [bin, "cassettes", "check", "--config", config], { EXITS_ROUND: "2" });
  expect(logs.get("cassettes check")).toContain("llm.json");
  // Two runs compared, as a page and as Markdown; a report shown from its JSON; a project set up.
  await run("show --compare", [bin, "show", "--compare", firstReport, join(out, "report"), "--no-open"], { CI: "1" });
  await run("show --compare --markdown", [bin, "show", "--compare", firstReport, join(out, "report"), "--markdown"]);
  await run("show", [bin, "show", join(out, "turns.json"), "--no-open"], { CI: "1" });
  // The Vitest run's report and the Jest run's as one (as shards' are), with its JSON and JUnit files.
  const merged = [`--out=${join(out, "merged")}`, `--json=${join(out, "merged.json")}`, `--junit=${join(out, "merged-junit.xml")}`];
  expect((await run("merge", [bin, "merge", join(out, "report"), join(out, "jest-report"), ...merged])).code, logs.get("merge")).toBe(0);
  const initProject = mkdtempSync(join(tmpdir(), "tooltrace-every-exit-init-"));
  writeFileSync(join(initProject, "package.json"), JSON.stringify({ name: "app", type: "module", private: true }));
  await run("init", [bin, "init"], {}, initProject);

  const reached = new Set(readFileSync(log, "utf8").split("\n").filter(Boolean));
  const unreached = Object.keys(EXITS).filter(
    (exit) => !reached.has(exit) && !(exit === "spans" && !otelRuns) && !(exit === "trials progress" && !artifacts),
  );
  expect(unreached).toEqual([]);

  const outputs = files(out);
  outputs.delete("exits.log");
  for (const [name, text] of logs) outputs.set(`(${name})`, text);
  for (const [name, text] of files(initProject)) outputs.set(`(init) ${name}`, text);
  const page = logs.get("show --compare")?.trim().split("\n").at(-1) ?? "";
  expect(existsSync(page)).toBe(true);
  outputs.set("(comparison page)", readFileSync(page, "latin1"));
  const shown = logs.get("show")?.trim().split("\n").at(-1) ?? "";
  outputs.set("(show's page)", readFileSync(shown, "latin1"));
  if (otelRuns) outputs.set("(OpenTelemetry export)", Buffer.concat(exported).toString("latin1"));
  // The outputs hold the run: its evals failed with their calls, each exit wrote what it writes.
  const handoffs = [...outputs.keys()].filter((name) => name.startsWith("jest-handoff/"));
  expect(handoffs).toHaveLength(1);
  for (const name of ["cassette.json", "llm.json", "junit.xml", "report/index.html", "turns.json", "summary.md", "exits.eval.ts.snap"])
    expect(outputs.get(name), name).toBeDefined();
  // Vitest 4.0.11 and later record artifacts: the trials' progress reached the fixture's reporter.
  if (artifacts) expect(outputs.get("artifacts.json")).toContain('"type":"tooltrace:trials"');
  const jestOutputs = ["jest-report/index.html", "jest-turns.json", "jest-junit.xml", "(jest run)", ...handoffs];
  for (const name of ["merged/index.html", "merged.json", "merged-junit.xml"]) expect(outputs.get(name), name).toContain("[redacted]");
  for (const name of ["junit.xml", "report/index.html", "turns.json", "(vitest run)", "exits.eval.ts.snap", ...jestOutputs])
    expect(outputs.get(name), name).toContain("[redacted]");
  expect(outputs.get("(vitest run)")).toContain("toHaveCalledTool");
  expect(outputs.get("(show --compare --markdown)")).toContain("## tooltrace");
  const leaks = [...outputs].flatMap(([name, text]) =>
    planted.flatMap((value, i) => {
      const at = text.indexOf(value);
      return at === -1 ? [] : [`${name}: planted ${i + 1}: …${text.slice(Math.max(0, at - 60), at + value.length + 10)}…`];
    }),
  );
  expect(leaks).toEqual([]);
  // No line of what tooltrace wrote or printed is a workflow command (Vitest's own annotations aside: its log).
  const commands = [...outputs].filter(([name, text]) => name !== "(vitest run)" && name !== "(cassettes check)" && /^\s*::\w/m.test(text));
  expect(commands.map(([name]) => name)).toEqual([]);
});
