import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { packageFile } from "../fixtures/versions.js";

const root = join(import.meta.dirname, "../..");
const project = join(import.meta.dirname, "../fixtures/stale-project");
const config = join(project, "vitest.config.ts");
const CHANGED = {
  STALE_SYSTEM: "You are verbose.\nAnswer in English.\nThe weather service key is sk-live-9f8e7d6c5b4a3210.\nNever guess.",
  STALE_TOOL: "Today's weather in a city",
  STALE_CITY: "Berlin",
};

/** Runs `command` with `env`, its output and exit code (plain text, no colours). */
async function run(args: readonly string[], env: Record<string, string> = {}) {
  return promisify(execFile)(process.execPath, args, { cwd: project, env: { ...process.env, NO_COLOR: "1", CI: "1", ...env } }).then(
    (ok) => ({ code: 0, output: ok.stdout + ok.stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
  );
}
const vitest = (env: Record<string, string> = {}) => run([packageFile("vitest", "vitest.mjs"), "run", "--config", config], env);
const check = (env: Record<string, string> = {}) => run([join(root, "dist/bin.js"), "cassettes", "check", "--config", config], env);

describe("cassettes that know they are stale", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    rmSync(join(project, "__cassettes__"), { recursive: true, force: true });
    const recorded = await vitest({ TOOLTRACE_CASSETTE: "record" });
    expect(recorded.code, recorded.output).toBe(0);
    expect(existsSync(join(project, "__cassettes__/weather.agent-spec.ts"))).toBe(true);
    // A Vitest run of its own: seconds alone, more beside two other files' child processes.
  }, 120_000);
  afterAll(() => rmSync(join(project, "__cassettes__"), { recursive: true, force: true }));

  test("replayed for the code that recorded it: nothing to say", async () => {
    const replay = await vitest();
    expect(replay.code).toBe(0);
    expect(replay.output).not.toContain("was recorded for another request");
    const checked = await check();
    expect(checked.output).toContain("[tooltrace] every cassette replayed describes the code as it is.");
    expect(checked.code).toBe(0);
  });

  test("a changed system prompt and tool: replay still answers, says what changed and how to record only this cassette", async () => {
    const replay = await vitest(CHANGED);
    expect(replay.code).toBe(0);
    expect(replay.output).toMatch(
      /cassette \S+weather\.agent-spec\.ts\/the-weather-recorded\.session-1\.json: model exchange 1 was recorded/,
    );
    expect(replay.output).toMatch(/- system prompt: [0-9a-f]{12}\n\s+\+ system prompt: [0-9a-f]{12} \(changed\)/);
    expect(replay.output).toMatch(
      /- tool get_weather: [0-9a-f]{12}\n\s+\+ tool get_weather: [0-9a-f]{12} \(its description or schema changed\)/,
    );
    expect(replay.output).toContain(
      "Fix: record this cassette again: TOOLTRACE_CASSETTE=record npx vitest run weather.agent-spec.ts -t 'the weather \\(recorded\\)'",
    );
  });

  test("the diff shows the lines that changed, redacted as the cassette is, and a tool call's changed input", async () => {
    const replay = await vitest(CHANGED);
    expect(replay.code).toBe(0);
    // The system prompt: the changed line, not the ones both share; its key never printed.
    expect(replay.output).toMatch(/\+ system prompt: [0-9a-f]{12} \(changed\)\n\s+- You are terse\.\n\s+\+ You are verbose\.\n/);
    expect(replay.output).not.toContain("Never guess");
    expect(replay.output).not.toContain("sk-live-9f8e7d6c5b4a3210");
    // The tool's definition, one field a line.
    expect(replay.output).toMatch(/- {3}"description": "The weather in a city",\n\s+\+ {3}"description": "Today's weather in a city",/);
    // A tool call fingerprinted by its input: reported as stale (it still replays), with the command for its cassette.
    expect(replay.output).toMatch(/the-forecast-tool-recorded\.session-1\.json: call 1 of forecast was recorded for another request/);
    expect(replay.output).toMatch(/- input\/city: "Paris"\n\s+\+ input\/city: "Berlin"/);
    expect(replay.output).toContain("npx vitest run weather.agent-spec.ts -t 'the forecast tool \\(recorded\\)'");
    // The cassette keeps the texts it compares, redacted.
    const cassette = readFileSync(join(project, "__cassettes__/weather.agent-spec.ts/the-weather-recorded.session-1.json"), "utf8");
    expect(cassette).toContain("You are terse.\\nAnswer in English.");
    expect(cassette).not.toContain("sk-live-9f8e7d6c5b4a3210");
  });

  test("TOOLTRACE_STALE_CASSETTES=error fails the test, as CI should", async () => {
    const strict = await vitest({ ...CHANGED, TOOLTRACE_STALE_CASSETTES: "error" });
    expect(strict.code).toBe(1);
    expect(strict.output).toContain("model exchange 1 was recorded for another request than the code sends now");
    expect(strict.output).toContain("Tests  2 failed");
  });

  test("npx tooltrace cassettes check lists every stale entry across the project, and records nothing", async () => {
    const checked = await check({ ...CHANGED, TOOLTRACE_CASSETTE: "record" });
    expect(checked.code).toBe(1);
    expect(checked.output).toContain("[tooltrace] 2 stale entries in 2 cassettes:");
    expect(checked.output).toMatch(
      /__cassettes__\/weather\.agent-spec\.ts\/the-weather-recorded\.session-1\.json\n {2}model exchange 1:\n {4}- system prompt/,
    );
    expect(checked.output).toContain(
      "record it again: TOOLTRACE_CASSETTE=record npx vitest run weather.agent-spec.ts -t 'the weather \\(recorded\\)'",
    );
    // The check replayed: the cassette still holds what was first recorded.
    expect((await vitest()).output).not.toContain("was recorded for another request");
  });

  test("a cassette that does not exist is named by the check, not recorded", async () => {
    rmSync(join(project, "__cassettes__"), { recursive: true, force: true });
    const checked = await check();
    expect(checked.code).toBe(1);
    expect(checked.output).toMatch(
      /the-weather-recorded\.session-1\.json\n {2}the whole cassette:\n {4}- \(never recorded: the file does not exist\)/,
    );
    expect(existsSync(join(project, "__cassettes__"))).toBe(false);
  });
});
