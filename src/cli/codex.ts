import type { Agent } from "../session/types.js";
import { cliAgent, type CliAgentOptions } from "./cli-agent.js";
import { packageBin } from "./claude-code.js";
import { lastFromJsonLines } from "./json-lines.js";

/** Options of {@link codex}. */
export interface CodexOptions extends CliAgentOptions {
  /** Codex's sandbox (`-s`). Default `workspace-write`: the default `read-only` makes every file write fail. */
  readonly sandbox?: "read-only" | "workspace-write" | "danger-full-access";
}

/**
 * Codex (`codex exec`) as a session's agent: one non-interactive run per turn in a scratch folder with its
 * own `CODEX_HOME`, its model provider a loopback server speaking the Responses API (the only one this Codex
 * speaks), answering from the session's model; its tool calls are caught on the wire. Needs `@openai/codex`
 * installed (0.171.0 is tested). Its shell tool is `exec_command` (`{ cmd }`) in this version: read the tools
 * a request offers (`request.tools`) rather than assuming a name.
 */
export function codex(options: CodexOptions = {}): Agent<never> {
  return cliAgent(
    {
      name: "codex",
      command: (o) => o.command ?? packageBin("@openai/codex", "bin/codex.js"),
      args: (prompt, url, _folders, o) => [
        "exec",
        "--skip-git-repo-check",
        "--json",
        "-s",
        options.sandbox ?? "workspace-write",
        "-c",
        "model_provider=tooltrace",
        "-c",
        `model_providers.tooltrace={name="tooltrace",base_url="${url}/v1",env_key="TOOLTRACE_MOCK_KEY",wire_api="responses"}`,
        "-c",
        `model=${o.model ?? "gpt-5-codex"}`,
        ...(o.args ?? []),
        "--",
        prompt,
      ],
      env: (_url, folders) => ({ HOME: folders.home, CODEX_HOME: folders.home, TOOLTRACE_MOCK_KEY: "sk-tooltrace-mock" }),
      answer: (stdout) =>
        lastFromJsonLines(stdout, (event) => {
          const item = event.item as { type?: string; text?: unknown } | undefined;
          return event.type === "item.completed" && item?.type === "agent_message" && typeof item.text === "string" ? item.text : undefined;
        }),
    },
    options,
  );
}
