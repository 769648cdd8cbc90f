// Starts the deployed agent's server (test/fixtures/deployed-agent/server.ts) in a child process on 127.0.0.1:
// the fixture and tooltrace's sources are bundled with rolldown into one ES module (the packages it imports
// stay outside, loaded from node_modules), so the child runs the current sources as a deployment would.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { build } from "rolldown";

const root = join(import.meta.dirname, "..", "..");
const dir = join(root, ".tooltrace-tmp", `deployed-agent-${process.pid}-${Date.now()}`);
let bundled: Promise<string> | undefined;
/** Servers running from the bundle: the last one to stop removes it. */
let running = 0;

function bundle(): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "server.mjs");
  bundled ??= build({
    input: join(root, "test", "fixtures", "deployed-agent", "server.ts"),
    platform: "node",
    external: (id) => !id.startsWith(".") && !isAbsolute(id),
    output: { file, format: "esm" },
    logLevel: "silent",
  }).then(() => file);
  return bundled;
}

/** The agent's server running in its child process. */
export interface DeployedAgent {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** What the server logged on stderr so far, one entry a line. */
  readonly logs: string[];
  /** The real tools the server ran since the last call (the fixture's executors note each run). */
  realCalls(): Promise<string[]>;
  stop(): Promise<void>;
}

/** Starts the server with `framework` (`hono`, `express`, `node`) and `env` (TOOLTRACE_SECRET, REQUIRE_TOKEN). */
export async function startDeployedAgent(
  framework: string,
  upstreamUrl: string,
  env: Record<string, string | undefined>,
): Promise<DeployedAgent> {
  const file = await bundle();
  running += 1;
  const { TOOLTRACE_SECRET: _inherited, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, [file], {
    cwd: root,
    env: { ...inherited, FRAMEWORK: framework, UPSTREAM_URL: upstreamUrl, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: string[] = [];
  child.stderr?.on("data", (chunk: Buffer) =>
    logs.push(
      ...chunk
        .toString()
        .split("\n")
        .filter((line) => line !== ""),
    ),
  );
  const port = await new Promise<number>((resolve, reject) => {
    // A server that never says its port fails the test with what it logged, rather than holding the run.
    const silent = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the deployed agent (${framework}) said no port in 30 s: ${logs.join("\n")}`));
    }, 30_000);
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = /\{"port":(\d+)\}/.exec(out);
      if (line) {
        clearTimeout(silent);
        resolve(Number(line[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(silent);
      reject(new Error(`the deployed agent exited with ${code}: ${logs.join("\n")}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    logs,
    realCalls: async () => (await fetch(`${url}/real-calls`)).json() as Promise<string[]>,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill();
        await exited;
      }
      running -= 1;
      if (running > 0) return;
      bundled = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
