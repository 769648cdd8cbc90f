import { type ChildProcess, spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { join } from "node:path";
import { projectWithBuiltPackage } from "./built-package.js";
import { median, quantile } from "./stats.js";

const root = join(import.meta.dirname, "..", "..");
const FILES = 20;
const RERUNS = 5;
const SESSIONS = 4;

type Setting = "Vitest's reporter alone" | "with the live viewer";

/** A watch session's project: 20 small eval files, each one test on the scripted model, all importing `shared.ts`. */
function project(): string {
  const folder = projectWithBuiltPackage("live-per-file");
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "live-per-file", type: "module", private: true }));
  writeFileSync(
    join(folder, "vitest.config.ts"),
    `import { tooltrace } from "tooltrace/vitest";\nexport default { plugins: [tooltrace()], test: { include: ["*.eval.ts"] } };\n`,
  );
  writeFileSync(join(folder, "shared.ts"), "export const run = 0;\n");
  for (let f = 0; f < FILES; f++)
    writeFileSync(
      join(folder, `f${f}.eval.ts`),
      `import { expect, test } from "vitest";
import { createSession } from "tooltrace";
import { run } from "./shared.js";
test("answers", async () => {
  const session = createSession({ tools: {}, agent: () => "yes " + run });
  expect(await session.send("hi")).toHaveMessageIncluding("yes");
});
`,
    );
  return folder;
}

/** Keeps the page's event stream open, as a browser on the served viewer would. */
function follow(url: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    get(url, (page) => {
      let html = "";
      page.on("data", (chunk: Buffer) => (html += chunk));
      page.on("end", () => {
        const token = /"token":"([^"]+)"/.exec(html)?.[1];
        if (token === undefined) return reject(new Error("no token on the served page"));
        const events = get(`${url}events?token=${token}`, (stream) => stream.resume());
        events.on("error", () => undefined);
        resolve(() => events.destroy());
      });
    }).on("error", reject);
  });
}

/**
 * One watch session: the time from rewriting `shared.ts` to Vitest waiting for changes again, per rerun of the
 * 20 files, with the live viewer (its page's event stream followed) or without tooltrace's reporter.
 */
async function session(folder: string, setting: Setting, start: number): Promise<number[]> {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "0" };
  delete env.CI;
  const reporters = setting === "with the live viewer" ? ["--reporter=default", "--reporter=tooltrace/reporter"] : ["--reporter=default"];
  const child: ChildProcess = spawn(process.execPath, [join(root, "node_modules", "vitest", "vitest.mjs"), "--watch", ...reporters], {
    cwd: folder,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let waits = 0;
  let waited: (() => void) | undefined;
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    const count = out.match(/(Waiting|Watching) for file changes/g)?.length ?? 0;
    if (count > waits) {
      waits = count;
      waited?.();
    }
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  const nextWait = (seen: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Vitest did not finish a run; it printed:\n${out.slice(-2000)}`)), 120_000);
      waited = () => {
        if (waits > seen) {
          clearTimeout(timer);
          resolve();
        }
      };
      waited();
    });
  let stop: (() => void) | undefined;
  try {
    await nextWait(0);
    if (setting === "with the live viewer") {
      const url = /live viewer: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1];
      if (url === undefined) throw new Error(`no live viewer URL; Vitest printed:\n${out.slice(-2000)}`);
      stop = await follow(url);
    }
    const times: number[] = [];
    for (let rerun = 0; rerun < RERUNS; rerun++) {
      const seen = waits;
      const started = performance.now();
      writeFileSync(join(folder, "shared.ts"), `export const run = ${start + rerun + 1};\n`);
      await nextWait(seen);
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    stop?.();
    child.kill("SIGKILL");
  }
}

export interface LivePerFileResult {
  /** Extra milliseconds per test file of a watch rerun with the live viewer, one value per pair of reruns. */
  readonly perFile: readonly number[];
  readonly baseline: readonly number[];
}

/** Watch sessions with and without the live viewer, alternating (ABBA), each rerunning the 20 files 5 times. */
export async function livePerFile(): Promise<LivePerFileResult> {
  const folder = project();
  try {
    const runs: Record<Setting, number[]> = { "Vitest's reporter alone": [], "with the live viewer": [] };
    let start = 0;
    for (let round = 0; round < SESSIONS; round++) {
      const order: Setting[] =
        round % 2 === 0 ? ["Vitest's reporter alone", "with the live viewer"] : ["with the live viewer", "Vitest's reporter alone"];
      for (const setting of order) {
        runs[setting].push(...(await session(folder, setting, start)));
        start += RERUNS;
      }
    }
    const alone = runs["Vitest's reporter alone"];
    const live = runs["with the live viewer"];
    return { perFile: live.map((ms, i) => (ms - (alone[i] as number)) / FILES), baseline: alone };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export function reportLivePerFile(result: LivePerFileResult): string {
  const { perFile, baseline } = result;
  return [
    `live viewer's cost to a watch rerun of ${FILES} files (an event stream followed), ABBA over ${SESSIONS} sessions of ${RERUNS} reruns:`,
    `  ${median(perFile).toFixed(1)} ms per file (IQR ${quantile(perFile, 0.25).toFixed(1)}–${quantile(perFile, 0.75).toFixed(1)}); a rerun without it takes ${median(baseline).toFixed(0)} ms (aim: at most 10 ms per file)`,
  ].join("\n");
}

if (process.argv[1]?.endsWith("live-per-file.js")) console.log(reportLivePerFile(await livePerFile()));
