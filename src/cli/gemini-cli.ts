import type { Agent } from "../session/types.js";
import { cliAgent, type CliAgentOptions } from "./cli-agent.js";
import { packageBin } from "./claude-code.js";

/** Options of {@link geminiCli}. */
export interface GeminiCliOptions extends CliAgentOptions {
  /**
   * Gemini CLI's approval mode. Default `yolo`: every tool the model asks for runs (in the run's scratch
   * folder) and is offered; in `default` mode a non-interactive run offers only the read-only tools.
   */
  readonly approvalMode?: "default" | "auto_edit" | "yolo";
}

/**
 * Gemini CLI (`gemini -p`) as a session's agent: one non-interactive run per turn in a scratch folder with its
 * own home, its Gemini API (`GOOGLE_GEMINI_BASE_URL`) a loopback server answering from the session's model; its
 * tool calls (`run_shell_command`, `read_file`, `write_file`, ...) are caught on the wire. The model is named
 * (`-m`, default `gemini-2.5-flash`), so the CLI makes no routing call; usage statistics are off, so nothing
 * leaves the machine. Needs `@google/gemini-cli` installed (0.61.0 is tested). A run takes a few seconds of
 * start-up.
 */
export function geminiCli(options: GeminiCliOptions = {}): Agent<never> {
  return cliAgent(
    {
      name: "gemini-cli",
      command: (o) => o.command ?? packageBin("@google/gemini-cli", "bundle/gemini.js"),
      args: (prompt, _url, _folders, o) => [
        "-m",
        o.model ?? "gemini-2.5-flash",
        "--output-format",
        "json",
        "--approval-mode",
        options.approvalMode ?? "yolo",
        ...(o.args ?? []),
        "-p",
        prompt,
      ],
      files: () => ({
        // An API key's login (the base URL alone selects a gateway login the CLI then refuses), no usage statistics.
        ".gemini/settings.json": JSON.stringify({
          security: { auth: { selectedType: "gemini-api-key" } },
          privacy: { usageStatisticsEnabled: false },
        }),
      }),
      env: (url, folders) => ({
        HOME: folders.home,
        GOOGLE_GEMINI_BASE_URL: url,
        GEMINI_API_KEY: "tooltrace-mock-key",
        GEMINI_CLI_TRUST_WORKSPACE: "true",
        TERM: "dumb",
      }),
      answer: (stdout) => {
        const start = stdout.indexOf("{");
        const json = JSON.parse(start === -1 ? stdout : stdout.slice(start)) as { response?: unknown };
        return typeof json.response === "string" ? json.response : "";
      },
    },
    options,
  );
}
