import { execFile } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { packageFile } from "../fixtures/versions.js";

const root = join(import.meta.dirname, "../..");
const project = join(import.meta.dirname, "../fixtures/stale-project");
const config = join(project, "vitest.config.ts");
const CHANGED = { STALE_SYSTEM: "You are verbose.", STALE_TOOL: "Today's weather in a city" };

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

  test("TOOLTRACE_STALE_CASSETTES=error fails the test, as CI should", async () => {
    const strict = await vitest({ ...CHANGED, TOOLTRACE_STALE_CASSETTES: "error" });
    expect(strict.code).toBe(1);
    expect(strict.output).toContain("model exchange 1 was recorded for another request than the code sends now");
    expect(strict.output).toContain("Tests  1 failed");
  });

  test("npx tooltrace cassettes check lists every stale entry across the project, and records nothing", async () => {
    const checked = await check({ ...CHANGED, TOOLTRACE_CASSETTE: "record" });
    expect(checked.code).toBe(1);
    expect(checked.output).toContain("[tooltrace] 1 stale entry in 1 cassette:");
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
