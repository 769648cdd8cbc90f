import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const root = join(import.meta.dirname, "../..");

/** The lock files a run left in the temporary folder it was given. */
function locksOf(temp: string, run: number): string[] {
  const folder = join(temp, "tooltrace-cassette-locks");
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter((name) => readFileSync(join(folder, name), "utf8").includes(`"run":${run}`));
}

// A process a test spawns (Vitest's environment, no IPC channel) is a run of its own, as a script outside a runner
// is: its claims on the cassettes it recorded end with it.
test("a process a test spawns that records a cassette leaves no lock file in the temporary folder", async () => {
  const temp = mkdtempSync(join(tmpdir(), "tooltrace-locks-"));
  const script = `
    import { createSession } from ${JSON.stringify(join(root, "dist", "index.js"))};
    const tools = { forecast: async () => ({ sky: "clear" }) };
    const session = createSession({ tools, agent: async () => String((await tools.forecast()).sky),
      cassette: { mode: "record", path: ${JSON.stringify(join(temp, "forecast.json"))} } });
    await session.send("go");
    session.close();
    const { readdirSync } = await import("node:fs");
    console.log(JSON.stringify({ pid: process.pid, during: readdirSync(${JSON.stringify(join(temp, "tooltrace-cassette-locks"))}) }));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
    env: { ...process.env, TMPDIR: temp },
  });
  const { pid, during } = JSON.parse(stdout) as { pid: number; during: string[] };
  // It did claim the cassette while it ran.
  expect(during).toHaveLength(1);
  expect(readFileSync(join(temp, "forecast.json"), "utf8")).toContain("clear");
  expect(locksOf(temp, pid)).toEqual([]);
});
