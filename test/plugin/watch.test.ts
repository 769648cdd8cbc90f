import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { packageFile } from "../fixtures/versions.js";

const project = join(import.meta.dirname, "../fixtures/watch-project");
const cassette = join(project, "__cassettes__", "weather.agent-spec.ts", "forecast.weather.json");

function writeCassette(sky: string): void {
  mkdirSync(join(cassette, ".."), { recursive: true });
  writeFileSync(cassette, `${JSON.stringify({ version: 1, tools: { forecast: [{ input: {}, output: { sky } }] }, http: {} }, null, 2)}\n`);
}

/** Resolves once `output()` holds `count` lines matching `pattern`, or rejects after `ms`. */
function waitFor(output: () => string, pattern: RegExp, count: number, ms = 30_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const check = setInterval(() => {
      if ((output().match(new RegExp(pattern, "g")) ?? []).length >= count) {
        clearInterval(check);
        resolve();
      } else if (Date.now() - started > ms) {
        clearInterval(check);
        reject(new Error(`timed out waiting for ${count} × ${pattern}:\n${output()}`));
      }
    }, 50);
  });
}

test("watch mode: editing a cassette re-runs the tests that replay it, and only them", async () => {
  rmSync(join(project, "__cassettes__"), { recursive: true, force: true });
  writeCassette("sunny");
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "0" };
  delete env.CI;
  delete env.TOOLTRACE_CASSETTE;
  const child = spawn(process.execPath, [packageFile("vitest", "vitest.mjs"), "--watch", "--config", join(project, "vitest.config.ts")], {
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  try {
    await waitFor(() => out, /RAN weather/, 1);
    await waitFor(() => out, /RAN other/, 1);
    await waitFor(() => out, /(Waiting|Watching) for file changes/, 1);
    expect(out).toContain('RAN weather {"sky":"sunny"}');

    writeCassette("stormy");
    await waitFor(() => out, /RAN weather/, 2);
    expect(out).toContain('RAN weather {"sky":"stormy"}');
    // Give a stray re-run of the other file the time to show up.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(out.match(/RAN other/g)).toHaveLength(1);
    expect(out.match(/RAN weather/g)).toHaveLength(2);
  } finally {
    child.kill("SIGKILL");
    rmSync(join(project, "__cassettes__"), { recursive: true, force: true });
  }
}, 60_000);
