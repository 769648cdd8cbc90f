import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { markWireAgent } from "../catchers/wire-agent.js";
import { currentTurnContext } from "../pipeline/turn-context.js";
import { serveOnLoopback } from "../catchers/loopback-server.js";
import { message, TooltraceError } from "../exits/errors.js";
import type { Agent } from "../session/types.js";
import { createAgentProcessAnswer } from "../catchers/wire-answer.js";
import { WireToolCalls } from "../catchers/wire-tool-calls.js";
import { runProcess } from "./run-process.js";
import { printOut, writePrivate } from "../exits/out.js";

/** Where one run of a CLI happens: its working folder and its own home. */
export interface CliRunFolders {
  /** The working folder the CLI runs in (the project it works on). */
  readonly cwd: string;
  /** A fresh home for the CLI's config and state (`HOME`, `CODEX_HOME`, ...). */
  readonly home: string;
  /**
   * The CLI's temporary folder (`TMPDIR`): what it writes there goes with the scratch folder (OpenCode unpacks
   * a 5 MB library into it on every run, and never removes it).
   */
  readonly tmp: string;
}

/** Options every CLI adapter takes. */
export interface CliAgentOptions {
  /** The CLI's executable. Default: the one its npm package installed in your project. */
  readonly command?: string;
  /** The model name the CLI asks for (the mock answers any). Default: Claude Code's own default; `gpt-5-codex` for Codex, `mock-model` for OpenCode (their providers need one). */
  readonly model?: string;
  /** Prepares the working folder before each run (write the files of the task). */
  readonly setup?: (folders: CliRunFolders) => void | Promise<void>;
  /** Inspects the working folder after each run, before it is removed (what the CLI changed). */
  readonly inspect?: (folders: CliRunFolders) => void | Promise<void>;
  /** Keep the scratch folder after the run (its path is printed). Default false. */
  readonly keep?: boolean;
  /** More environment variables for the CLI. */
  readonly env?: Readonly<Record<string, string>>;
  /** More command-line arguments, before the prompt. */
  readonly args?: readonly string[];
}

/** What an adapter says about its CLI. */
export interface CliSpec {
  readonly name: string;
  command(options: CliAgentOptions): string;
  args(prompt: string, baseUrl: string, folders: CliRunFolders, options: CliAgentOptions): string[];
  /** The prompt on standard input instead of in `args`. */
  readonly promptOnStdin?: boolean;
  env(baseUrl: string, folders: CliRunFolders, options: CliAgentOptions): Record<string, string>;
  /** Files written into the run's home before it starts (its settings), by path relative to the home. */
  files?(baseUrl: string): Record<string, string>;
  /** The final answer from the CLI's stdout. */
  answer(stdout: string): string;
}

/**
 * An agent that runs a CLI once per turn, in a scratch folder of its own, pointed at a loopback server on
 * 127.0.0.1 that answers from the session's model (`createSession({ llm })`). Every tool call in the model's
 * replies goes through the session's chain before the CLI sees it (see `WireToolCalls`), so stubs,
 * middleware and strict mode apply to the CLI's own tools, and the trace is built from the wire.
 */
export function cliAgent(spec: CliSpec, options: CliAgentOptions = {}): Agent<never> {
  const agent: Agent<never> = async (prompt, { signal }) => {
    const context = currentTurnContext();
    if (context === undefined)
      throw new TooltraceError(`${spec.name} runs only as a session's agent: createSession({ agent: ${spec.name}(), llm })`);
    const root = mkdtempSync(join(tmpdir(), `tooltrace-${spec.name}-`));
    const folders: CliRunFolders = { cwd: join(root, "work"), home: join(root, "home"), tmp: join(root, "tmp") };
    mkdirSync(folders.cwd);
    mkdirSync(folders.home);
    mkdirSync(folders.tmp);
    const wireTools = new WireToolCalls();
    const answer = createAgentProcessAnswer({ context, wireTools });
    // Once the turn is stopped (a timeout, an abort), the proxy answers nothing more before any signal is
    // sent: what the CLI sends while it shuts down is refused, never answered as a late call of the test's.
    let stopped = false;
    const stop = () => {
      stopped = true;
      wireTools.abandon(`${spec.name} was stopped before it sent this call's result`);
    };
    signal.addEventListener("abort", stop, { once: true });
    const server = await serveOnLoopback((request) => (stopped ? Promise.resolve(stoppedReply(spec.name)) : answer.answer(request)));
    try {
      for (const [path, text] of Object.entries(spec.files?.(server.url) ?? {})) {
        writePrivate("cli agent files", join(folders.home, path), text);
      }
      await options.setup?.(folders);
      const env = {
        PATH: process.env.PATH ?? "",
        LANG: "C.UTF-8",
        TMPDIR: folders.tmp,
        ...spec.env(server.url, folders, options),
        ...options.env,
      };
      const result = await runProcess(spec.command(options), spec.args(prompt, server.url, folders, options), {
        cwd: folders.cwd,
        env,
        signal,
        ...(spec.promptOnStdin ? { stdin: prompt } : {}),
      });
      signal.throwIfAborted();
      if (result.code !== 0) {
        throw new TooltraceError(`${spec.name} exited with ${result.code ?? result.signal}: ${lastLines(result.stderr || result.stdout)}`);
      }
      await options.inspect?.(folders);
      return spec.answer(result.stdout);
    } finally {
      signal.removeEventListener("abort", stop);
      wireTools.abandon(`${spec.name} ended before it sent this call's result`);
      await server.close();
      if (options.keep) printOut("console", message(`${spec.name}: kept the scratch folder ${root}`));
      else rmSync(root, { recursive: true, force: true });
    }
  };
  return markWireAgent(agent);
}

function lastLines(text: string): string {
  return text.trim().split("\n").slice(-8).join("\n").slice(-2_000);
}

/** What a stopped run's proxy answers: an error both providers' clients read (`error.message`), never retried (4xx). */
function stoppedReply(name: string): Response {
  const text = message(`${name}'s turn was stopped (it timed out or was aborted): this request was not answered.`);
  return Response.json({ type: "error", error: { type: "invalid_request_error", message: text } }, { status: 400 });
}
