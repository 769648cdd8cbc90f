import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Agent } from "../session/types.js";
import { cliAgent, type CliAgentOptions } from "./cli-agent.js";
import { message } from "../exits/errors.js";

/** Options of {@link claudeCode}. */
export interface ClaudeCodeOptions extends CliAgentOptions {
  /** The tools Claude Code may run without asking (`--allowedTools`). Default: Bash, Read, Write, Edit, Glob, Grep. */
  readonly allowedTools?: readonly string[];
}

const DEFAULT_TOOLS = ["Bash", "Read", "Write", "Edit", "Glob", "Grep"];

/**
 * Claude Code (`claude -p`) as a session's agent: one non-interactive run per turn in a scratch folder, its
 * LLM API (`ANTHROPIC_BASE_URL`) a loopback server answering from the session's model, its tool calls
 * caught on the wire. It runs Claude Code's own default model unless `model` is given (`--model`). Needs
 * `@anthropic-ai/claude-code` installed (2.1.197 is tested).
 *
 * @example
 * ```ts
 * const session = createSession({ agent: claudeCode({ model: "claude-sonnet-4-6" }), llm: respond, stubs });
 * const turn = await session.send("Add a test for the parser");
 * expect(turn).toHaveCalledTool("Bash", { input: { command: expect.stringContaining("npm test") } });
 * ```
 */
export function claudeCode(options: ClaudeCodeOptions = {}): Agent<never> {
  return cliAgent(
    {
      name: "claudeCode",
      command: (o) => o.command ?? packageBin("@anthropic-ai/claude-code", "bin/claude.exe"),
      args: (prompt, _url, _folders, o) => [
        "-p",
        "--output-format",
        "json",
        ...(o.model === undefined ? [] : ["--model", o.model]),
        "--allowedTools",
        ...(options.allowedTools ?? DEFAULT_TOOLS),
        ...(o.args ?? []),
        "--",
        prompt,
      ],
      env: (url, folders) => ({
        HOME: folders.home,
        ANTHROPIC_BASE_URL: url,
        ANTHROPIC_API_KEY: "sk-ant-tooltrace-mock",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_ERROR_REPORTING: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      }),
      answer: (stdout) => {
        const result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as { result?: unknown; is_error?: boolean };
        if (result.is_error === true) throw new Error(`claude reported an error: ${String(result.result)}`);
        return typeof result.result === "string" ? result.result : "";
      },
    },
    options,
  );
}

/** The path of a file in an installed package, resolved from the user's project first, then from tooltrace. */
export function packageBin(name: string, file: string): string {
  for (const from of [join(process.cwd(), "noop.js"), import.meta.url]) {
    try {
      return join(dirname(createRequire(from).resolve(`${name}/package.json`)), file);
    } catch {
      // Not installed there.
    }
  }
  throw new Error(message(`${name} is not installed.`, `npm install --save-dev ${name}`));
}
