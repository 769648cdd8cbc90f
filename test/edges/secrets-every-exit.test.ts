import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { packageFile } from "../fixtures/versions.js";

const root = join(import.meta.dirname, "../..");
const project = join(import.meta.dirname, "../fixtures/secrets-json-project");
const config = join(project, "vitest.config.ts");
const nonce = Math.random().toString(36).slice(2, 8);
/** The values the fixture plants, as it derives them. */
const secret = (n: number) => `leak${String(n).padStart(2, "0")}x${nonce}Q`;

/** Runs `args` in the fixture project, one eval of it, writing its outputs into a folder of its own. */
async function run(args: readonly string[], spec: string, env: Record<string, string> = {}) {
  const { CI: _ci, GITHUB_ACTIONS: _gh, ...rest } = process.env;
  const out = mkdtempSync(join(tmpdir(), "tooltrace-every-exit-"));
  const result = await promisify(execFile)(process.execPath, args, {
    cwd: project,
    env: { ...rest, NO_COLOR: "1", SECRETS_NONCE: nonce, SECRETS_SPEC: spec, SECRETS_OUT: out, ...env },
  }).then(
    (ok) => ({ code: 0, stdout: ok.stdout, stderr: ok.stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
  return { ...result, out };
}
const vitest = (spec: string, env: Record<string, string> = {}) =>
  run([packageFile("vitest", "vitest.mjs"), "run", "--config", config], spec, env);

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

// Each test runs Vitest once or twice: beside other files' child processes, most of a minute.
describe("a secret in every form, out of every exit of a run", { timeout: 120_000 }, () => {
  // Leak 1: a token in a string holding JSON is redacted in the cassette, kept in the log, JUnit, the viewer and the JSON reporter's file.
  test("a token inside a JSON string reaches no output: the log, JUnit, the viewer page, the JSON reporter's file", async () => {
    const result = await vitest("json-token.eval.ts", { CI: "1" });
    const outputs = files(result.out);
    outputs.set("(stdout)", result.stdout);
    outputs.set("(stderr)", result.stderr);
    expect([...outputs.keys()]).toEqual(expect.arrayContaining(["cassette.json", "junit.xml", "report/index.html", "turns.json"]));
    expect(result.stdout).toContain("1 failed");
    expect(outputs.get("cassette.json")).toContain("[redacted]");
    const leaks = [...outputs].filter(([, text]) => text.includes(secret(1))).map(([name]) => name);
    expect(leaks).toEqual([]);
  });

  // Leak 3: toMatchTraceSnapshot of a login writes the password and the session token into the .snap file.
  test("a trace snapshot of a login keeps neither the password it was sent nor the token it returned", async () => {
    const result = await vitest("login-snapshot.eval.ts");
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const snapshot = readFileSync(join(result.out, "login-snapshot.eval.ts.snap"), "utf8");
    expect(snapshot).toContain('"tool": "login"');
    expect([secret(2), secret(3)].filter((value) => snapshot.includes(value))).toEqual([]);
  });

  // Leak 4: `cassettes check` prints the live prompt's password in the CI log, though the cassette it read had redacted it.
  test("npx tooltrace cassettes check prints no password from a prompt", async () => {
    const recorded = await vitest("prompt-cassette.eval.ts", { CI: "1", TOOLTRACE_CASSETTE: "record" });
    expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
    expect(readFileSync(join(recorded.out, "llm.json"), "utf8")).not.toContain(secret(4));
    // The prompt changed since (another user, another password): the check reports it, from a cassette that holds none.
    const checked = await run([join(root, "dist/bin.js"), "cassettes", "check", "--config", config], "prompt-cassette.eval.ts", {
      CI: "1",
      SECRETS_ROUND: "2",
      SECRETS_OUT: recorded.out,
    });
    const output = checked.stdout + checked.stderr;
    expect(checked.code).toBe(1);
    expect(output).toContain("+ last user message:");
    expect([secret(4), secret(5)].filter((value) => output.includes(value))).toEqual([]);
  });
});
